// Command atelier-ferretdb runs FerretDB v1 through its embeddable package.
//
// Why a wrapper instead of `go install .../cmd/ferretdb@v1.24.2`: a binary whose main
// module is FerretDB itself panics at start unless it was built from a git checkout
// (build/version/version.txt is generated there and is absent from the module zip), and
// the embeddable package also disables and locks telemetry, so it can never reach the
// network. See docs/decisions.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to listen on")
	handler := flag.String("handler", "sqlite", "backend: sqlite or postgresql")
	sqliteURL := flag.String("sqlite-url", "file:.data/ferretdb/", "SQLite directory URL (ends with /)")
	pgURL := flag.String("postgresql-url", "", "PostgreSQL URL for the postgresql handler")
	logLevel := flag.String("log-level", "warn", "debug, info, warn or error")
	flag.Parse()

	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		fmt.Fprintf(os.Stderr, "atelier-ferretdb: bad --log-level: %v\n", err)
		os.Exit(2)
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *listen},
		Logger:        logger,
		Handler:       *handler,
		SQLiteURL:     *sqliteURL,
		PostgreSQLURL: *pgURL,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "atelier-ferretdb: %v\n", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	fmt.Fprintf(os.Stderr, "atelier-ferretdb: listening on %s (%s)\n", *listen, *handler)
	if err := f.Run(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "atelier-ferretdb: %v\n", err)
		os.Exit(1)
	}
}
