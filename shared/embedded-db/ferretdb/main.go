// Command atelier-ferretdb runs FerretDB v1 through its embeddable package, behind a small
// wire-protocol front that runs write commands one at a time.
//
// Why a wrapper instead of `go install .../cmd/ferretdb@v1.24.2`: a binary whose main
// module is FerretDB itself panics at start unless it was built from a git checkout
// (build/version/version.txt is generated there and is absent from the module zip), and
// the embeddable package also disables and locks telemetry, so it can never reach the
// network.
//
// Why the write front: FerretDB v1 applies an update by reading the document and writing
// it back without a transaction, so two concurrent updates of one document can both pass
// a conditional filter and an $inc can be lost (measured: 50 concurrent $inc → 13). MongoDB
// guarantees single-document atomicity and Atelier relies on it (one winner per claim,
// version checks, counters). Running write commands one at a time restores that guarantee;
// SQLite has a single writer anyway, so little throughput is lost. Reads are not held.
// See docs/decisions.md.
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

const (
	opMsg         = 2013
	flagChecksum  = 1 << 0
	flagMoreComes = 1 << 1
	maxMessage    = 48 << 20
)

// Commands that change data: run one at a time across all connections.
var writeCommands = map[string]bool{
	"insert": true, "update": true, "delete": true, "findAndModify": true, "findandmodify": true,
	"create": true, "createIndexes": true, "drop": true, "dropDatabase": true, "dropIndexes": true,
	"collMod": true, "renameCollection": true,
}

func main() {
	listen := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to listen on")
	handler := flag.String("handler", "sqlite", "backend: sqlite or postgresql")
	sqliteURL := flag.String("sqlite-url", "file:.data/ferretdb/", "SQLite directory URL (ends with /)")
	pgURL := flag.String("postgresql-url", "", "PostgreSQL URL for the postgresql handler")
	logLevel := flag.String("log-level", "error", "debug, info, warn or error")
	flag.Parse()

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fail("bad --log-level: %v", err)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: "127.0.0.1:0"},
		Logger:        logger,
		Handler:       *handler,
		SQLiteURL:     *sqliteURL,
		PostgreSQLURL: *pgURL,
	})
	if err != nil {
		fail("%v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := f.Run(ctx); err != nil {
			logger.Error("ferretdb stopped", "error", err)
		}
	}()

	u, err := url.Parse(f.MongoDBURI())
	if err != nil {
		fail("backend address: %v", err)
	}
	backend := u.Host

	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fail("%v", err)
	}
	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	fmt.Fprintf(os.Stderr, "atelier-ferretdb: listening on %s (%s)\n", *listen, *handler)

	var writes sync.Mutex
	for {
		client, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			logger.Error("accept", "error", err)
			continue
		}
		go serve(client, backend, &writes, logger)
	}
	<-done
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "atelier-ferretdb: "+format+"\n", args...)
	os.Exit(1)
}

func serve(client net.Conn, backendAddr string, writes *sync.Mutex, logger *slog.Logger) {
	defer client.Close()
	backend, err := net.Dial("tcp", backendAddr)
	if err != nil {
		logger.Error("backend dial", "error", err)
		return
	}
	defer backend.Close()

	for {
		msg, err := readMessage(client)
		if err != nil {
			return
		}
		opcode := binary.LittleEndian.Uint32(msg[12:16])
		var flags uint32
		if opcode == opMsg && len(msg) >= 20 {
			flags = binary.LittleEndian.Uint32(msg[16:20])
		}
		write := opcode == opMsg && writeCommands[commandName(msg, flags)]
		if write {
			writes.Lock()
		}
		err = roundTrip(client, backend, msg, flags&flagMoreComes != 0)
		if write {
			writes.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// roundTrip forwards one request and every reply that belongs to it.
func roundTrip(client, backend net.Conn, msg []byte, noReply bool) error {
	if _, err := backend.Write(msg); err != nil {
		return err
	}
	if noReply {
		return nil
	}
	for {
		resp, err := readMessage(backend)
		if err != nil {
			return err
		}
		if _, err := client.Write(resp); err != nil {
			return err
		}
		more := binary.LittleEndian.Uint32(resp[12:16]) == opMsg && len(resp) >= 20 &&
			binary.LittleEndian.Uint32(resp[16:20])&flagMoreComes != 0
		if !more {
			return nil
		}
	}
}

func readMessage(r io.Reader) ([]byte, error) {
	var header [16]byte
	if _, err := io.ReadFull(r, header[:]); err != nil {
		return nil, err
	}
	size := int(int32(binary.LittleEndian.Uint32(header[0:4])))
	if size < 16 || size > maxMessage {
		return nil, errors.New("bad message length")
	}
	msg := make([]byte, size)
	copy(msg, header[:])
	if _, err := io.ReadFull(r, msg[16:]); err != nil {
		return nil, err
	}
	return msg, nil
}

// commandName is the first key of an OP_MSG's body section (kind 0), or "".
func commandName(msg []byte, flags uint32) string {
	end := len(msg)
	if flags&flagChecksum != 0 {
		end -= 4
	}
	for i := 20; i < end; {
		kind := msg[i]
		i++
		if i+4 > end {
			return ""
		}
		size := int(int32(binary.LittleEndian.Uint32(msg[i : i+4])))
		if size < 5 || i+size > end {
			return ""
		}
		if kind == 0 {
			// BSON document: int32 size, then elements: type byte, cstring name, value.
			j := i + 5
			for k := j; k < i+size; k++ {
				if msg[k] == 0 {
					return string(msg[j:k])
				}
			}
			return ""
		}
		i += size
	}
	return ""
}
