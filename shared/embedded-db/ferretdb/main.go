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
// FerretDB on PostgreSQL loses updates the same way (measured: 50 → 18), so the front stays
// on for both backends; --serialize-writes=false exists only to measure that (pnpm bench
// storage). See docs/decisions.md.
//
// --lookup-indexes adds indexes that FerretDB's own queries can use (lookup_indexes.go).
//
// Narrowed writes (narrow.go, --narrow-writes, default on; only on SQLite and only while
// writes are serialised): FerretDB's SQLite backend pushes a filter down only when it is
// exactly {_id: X}, so a compare-and-swap update by {_id: X, version: 3} decoded every
// document of its collection. Holding the write lock, the front first asks FerretDB (with an
// aggregate whose first $match is {_id: X}, which it pushes down) whether X matches the whole
// filter, then sends the write with the filter {_id: X}, or with an _id no document has when
// X does not match. Statements whose meaning could change are forwarded as they are.
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
	"runtime/pprof"
	"sync"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
	"go.mongodb.org/mongo-driver/bson"
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
	serialize := flag.Bool("serialize-writes", true, "run write commands one at a time (false only to measure what breaks without)")
	lookups := flag.Bool("lookup-indexes", false, "create indexes that FerretDB's own lookups use (lookup_indexes.go)")
	narrow := flag.Bool("narrow-writes", true, "with --serialize-writes on SQLite: narrow {_id: X, ...} write filters to ones FerretDB pushes down (narrow.go)")
	flag.Parse()

	// ATELIER_FERRETDB_CPUPROFILE=FILE: a CPU profile of this process until it stops, for
	// `go tool pprof` (docs/performance.md, "Where the embedded database's time goes").
	if file := os.Getenv("ATELIER_FERRETDB_CPUPROFILE"); file != "" {
		out, err := os.Create(file)
		if err != nil {
			fail("cpu profile: %v", err)
		}
		if err := pprof.StartCPUProfile(out); err != nil {
			fail("cpu profile: %v", err)
		}
		defer func() {
			pprof.StopCPUProfile()
			out.Close()
		}()
	}

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fail("bad --log-level: %v", err)
	}
	logger := slog.New(newLazyHandler(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))

	// Bound first, so the port a launcher picked is ours at once; clients wait in the backlog
	// until FerretDB is up and the lookup indexes are reconciled.
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fail("%v", err)
	}

	if *lookups && *handler == "postgresql" {
		*pgURL = withCustomPlans(*pgURL)
	}

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

	// Before the first client: indexes for what exists already, or (option off) none of ours.
	if err := waitForBackend(ctx, backend); err != nil {
		fail("%v", err)
	}
	indexes, err := newLookupIndexes(*handler, *sqliteURL, *pgURL, logger)
	if err == nil && *lookups {
		defer indexes.store.close()
		err = indexes.reconcile(ctx)
	} else if err == nil {
		err = indexes.store.dropAll(ctx)
		indexes.store.close()
		indexes = nil
	}
	if err != nil {
		fail("lookup indexes: %v", err)
	}

	go func() {
		<-ctx.Done()
		ln.Close()
	}()
	fmt.Fprintf(os.Stderr, "atelier-ferretdb: listening on %s (%s, serialize-writes=%t, lookup-indexes=%t, narrow-writes=%t)\n",
		*listen, *handler, *serialize, *lookups, *narrow && *serialize && *handler == "sqlite")

	// With --serialize-writes=false every connection gets a lock of its own: nothing waits.
	var shared sync.Mutex
	front := &front{indexes: indexes, backend: backend, logger: logger, narrow: *narrow && *serialize && *handler == "sqlite"}
	for {
		client, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			logger.Error("accept", "error", err)
			continue
		}
		writes := &shared
		if !*serialize {
			writes = new(sync.Mutex)
		}
		go front.serve(ctx, client, writes)
	}
	<-done
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "atelier-ferretdb: "+format+"\n", args...)
	os.Exit(1)
}

// withCustomPlans asks PostgreSQL to plan every execution of FerretDB's prepared statements
// with the actual values: its WHERE names the field as a parameter (`_jsonb->$1 @> $2`), and
// only a plan made for the value 'slug' can match an index on `_jsonb->'slug'`.
func withCustomPlans(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	q := p.Query()
	if !q.Has("plan_cache_mode") {
		q.Set("plan_cache_mode", "force_custom_plan")
	}
	p.RawQuery = q.Encode()
	return p.String()
}

func waitForBackend(ctx context.Context, addr string) error {
	for i := 0; ; i++ {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			return c.Close()
		}
		if i > 100 || ctx.Err() != nil {
			return fmt.Errorf("backend did not start: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

type front struct {
	indexes *lookupIndexes
	backend string
	logger  *slog.Logger
	// narrow: rewrite write filters while the (shared) write lock is held (narrow.go).
	narrow bool
}

func (f *front) serve(ctx context.Context, client net.Conn, writes *sync.Mutex) {
	logger := f.logger
	defer client.Close()
	backend, err := net.Dial("tcp", f.backend)
	if err != nil {
		logger.Error("backend dial", "error", err)
		return
	}
	defer backend.Close()
	// Our own requests on this connection (the narrowing probes) count up from here, far
	// from the client's request ids; FerretDB only echoes them.
	probeID := int32(-1 << 30)
	probe := backendProbe(backend, &probeID)

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
		var body bson.Raw
		if opcode == opMsg {
			body = commandBody(msg, flags)
		}
		cmd := commandName(body)
		write := writeCommands[cmd]
		if write {
			writes.Lock()
		}
		if write && f.narrow && (cmd == "update" || cmd == "delete" || cmd == "findAndModify" || cmd == "findandmodify") {
			if narrowed, res := narrowMessage(msg, flags, cmd, body, probe); narrowed != nil {
				logger.Debug("narrowed write filter", "command", cmd, "matched", res == narrowMatch)
				msg = narrowed
			}
		}
		err = roundTrip(client, backend, msg, flags&flagMoreComes != 0)
		if write && err == nil && f.indexes != nil {
			// Before the write lock is released, so the next write already finds the indexes.
			db, _ := body.Lookup("$db").StringValueOK()
			coll, _ := body.Lookup(cmd).StringValueOK()
			f.indexes.afterWrite(ctx, cmd, db, coll)
		}
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

// commandName is the first key of a command's body, or "".
func commandName(body bson.Raw) string {
	if body == nil {
		return ""
	}
	first, err := body.IndexErr(0)
	if err != nil {
		return ""
	}
	return first.Key()
}

// commandBody is an OP_MSG's body section (kind 0), or nil.
func commandBody(msg []byte, flags uint32) bson.Raw {
	end := len(msg)
	if flags&flagChecksum != 0 {
		end -= 4
	}
	for i := 20; i < end; {
		kind := msg[i]
		i++
		if i+4 > end {
			return nil
		}
		size := int(int32(binary.LittleEndian.Uint32(msg[i : i+4])))
		if size < 5 || i+size > end {
			return nil
		}
		if kind == 0 {
			return bson.Raw(msg[i : i+size])
		}
		i += size
	}
	return nil
}
