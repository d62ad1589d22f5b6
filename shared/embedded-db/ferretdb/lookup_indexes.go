// Lookup indexes: indexes that FerretDB v1 does not build itself but that its own queries
// can use (--lookup-indexes). FerretDB's indexes are built on expressions its queries never
// use, so without these every lookup scans (docs/performance.md, "What the embedded FerretDB
// does with indexes"). They are created straight in the backend store, under names FerretDB
// does not know (prefix _ferretdb_atelier_: FerretDB reserves _ferretdb_ so no collection's
// table or index can start with it), so FerretDB's index metadata (listIndexes, dropIndexes)
// is unchanged; a dropped collection takes them with its table. Started with the option off,
// the wrapper drops any it made before, so "off" means what it says.
//
//   - SQLite: FerretDB pushes down only a filter that is exactly {_id: <string|ObjectId>}, as
//     `WHERE _ferretdb_sjson->'$._id' = ?` (reads, updates and deletes alike). Its own _id
//     index is on `_ferretdb_sjson->"_id"`, which SQLite does not treat as the same
//     expression, so we add one on the exact text.
//   - PostgreSQL: FerretDB pushes down equality (and $ne) on top-level fields as
//     `_jsonb->'f' @> '<value>'`, ANDed, whatever else the filter holds. Its own btree indexes
//     on `((_jsonb->'f'))` cannot serve `@>`; a GIN index on the same expression can. We add
//     one for _id and for every top-level field of every index the application declares.
package main

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "modernc.org/sqlite" // the SQLite driver FerretDB itself uses
)

// store creates the lookup indexes of one collection, and lists what exists at start.
type store interface {
	ensure(ctx context.Context, db, coll string) (found bool, err error)
	collections(ctx context.Context) ([][2]string, error)
	dropAll(ctx context.Context) error
	close()
}

// lookupIndexes remembers which collections are done, so that a write to a known collection
// costs one map lookup. Callers hold the write lock when writes are serialised; the mutex
// here covers --serialize-writes=false.
type lookupIndexes struct {
	mu     sync.Mutex
	done   map[string]bool
	store  store
	logger *slog.Logger
}

func newLookupIndexes(handler, sqliteURL, pgURL string, logger *slog.Logger) (*lookupIndexes, error) {
	var s store
	switch handler {
	case "sqlite":
		dir, err := sqliteDir(sqliteURL)
		if err != nil {
			return nil, err
		}
		s = &sqliteStore{dir: dir}
	case "postgresql":
		pool, err := pgxpool.New(context.Background(), pgURL)
		if err != nil {
			return nil, err
		}
		s = &pgStore{pool: pool}
	default:
		return nil, fmt.Errorf("no lookup indexes for handler %q", handler)
	}
	return &lookupIndexes{done: map[string]bool{}, store: s, logger: logger}, nil
}

// reconcile covers collections created before this process started.
func (l *lookupIndexes) reconcile(ctx context.Context) error {
	colls, err := l.store.collections(ctx)
	if err != nil {
		return err
	}
	for _, c := range colls {
		l.afterWrite(ctx, "create", c[0], c[1])
	}
	return nil
}

// afterWrite runs after a write command has been answered. A command that can create a
// collection or an index ensures the lookup indexes; one that drops forgets what was done
// (a collection created again under the same name gets a new table).
func (l *lookupIndexes) afterWrite(ctx context.Context, cmd, db, coll string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := db + "\x00" + coll
	switch cmd {
	case "drop", "dropDatabase", "renameCollection":
		clear(l.done)
		return
	case "createIndexes":
		// new fields to index (PostgreSQL); always look again
	case "create", "insert", "update", "findAndModify", "findandmodify":
		if l.done[key] {
			return
		}
	default:
		return
	}
	if db == "" || coll == "" {
		return
	}
	found, err := l.store.ensure(ctx, db, coll)
	if err != nil {
		l.logger.Error("lookup indexes", "db", db, "collection", coll, "error", err)
		return
	}
	if found {
		l.done[key] = true
	}
}

const prefix = "_ferretdb_atelier_"

// indexName is a name of our own, unique per table and expression, within PostgreSQL's 63 bytes.
func indexName(table, expr string) string {
	h := fnv.New64a()
	h.Write([]byte(table + "\x00" + expr))
	if len(table) > 26 {
		table = table[:26]
	}
	return fmt.Sprintf("%s%s_%016x", prefix, table, h.Sum64())
}

func quoteIdent(s string) string   { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteLiteral(s string) string { return `'` + strings.ReplaceAll(s, `'`, `''`) + `'` }

// ---- SQLite: one file per database, <dir>/<db>.sqlite, with a _ferretdb_collections table.

type sqliteStore struct{ dir string }

func sqliteDir(u string) (string, error) {
	p, err := url.Parse(u)
	if err != nil {
		return "", err
	}
	dir := p.Path
	if dir == "" {
		dir = p.Opaque
	}
	if dir == "" {
		return "", errors.New("no directory in --sqlite-url")
	}
	return dir, nil
}

// open opens the database's file for one operation. It is not kept open: dropDatabase
// removes the file, and a handle kept open would write into the removed file.
func (s *sqliteStore) open(db string) (*sql.DB, error) {
	file := filepath.Join(s.dir, db+".sqlite")
	if _, err := os.Stat(file); err != nil {
		return nil, nil
	}
	return sql.Open("sqlite", "file:"+file+"?mode=rw&_pragma=busy_timeout(10000)")
}

func (s *sqliteStore) ensure(ctx context.Context, db, coll string) (bool, error) {
	conn, err := s.open(db)
	if conn == nil || err != nil {
		return false, err
	}
	defer conn.Close()
	var table string
	err = conn.QueryRowContext(ctx, `SELECT table_name FROM "_ferretdb_collections" WHERE name = ?`, coll).Scan(&table)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	// Not UNIQUE: FerretDB's own _id index already enforces that; this one only serves lookups.
	const expr = `_ferretdb_sjson->'$._id'`
	q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s (%s)`, quoteIdent(indexName(table, expr)), quoteIdent(table), expr)
	if _, err = conn.ExecContext(ctx, q); err != nil {
		return false, err
	}
	return true, nil
}

func (s *sqliteStore) collections(ctx context.Context) ([][2]string, error) {
	files, err := filepath.Glob(filepath.Join(s.dir, "*.sqlite"))
	if err != nil {
		return nil, err
	}
	var out [][2]string
	for _, f := range files {
		db := strings.TrimSuffix(filepath.Base(f), ".sqlite")
		conn, err := s.open(db)
		if conn == nil || err != nil {
			continue
		}
		rows, err := conn.QueryContext(ctx, `SELECT name FROM "_ferretdb_collections"`)
		if err == nil {
			for rows.Next() {
				var name string
				if rows.Scan(&name) == nil {
					out = append(out, [2]string{db, name})
				}
			}
			rows.Close()
		}
		conn.Close()
	}
	return out, nil
}

func (s *sqliteStore) dropAll(ctx context.Context) error {
	files, err := filepath.Glob(filepath.Join(s.dir, "*.sqlite"))
	if err != nil {
		return err
	}
	for _, f := range files {
		conn, err := s.open(strings.TrimSuffix(filepath.Base(f), ".sqlite"))
		if conn == nil || err != nil {
			continue
		}
		var names []string
		rows, err := conn.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'index' AND substr(name, 1, ?) = ?`, len(prefix), prefix)
		if err == nil {
			for rows.Next() {
				var n string
				if rows.Scan(&n) == nil {
					names = append(names, n)
				}
			}
			rows.Close()
		}
		for _, n := range names {
			if _, err = conn.ExecContext(ctx, `DROP INDEX IF EXISTS `+quoteIdent(n)); err != nil {
				break
			}
		}
		conn.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func (s *sqliteStore) close() {}

// ---- PostgreSQL: one schema per database, with a _ferretdb_database_metadata table whose
// rows name each collection's table and indexes.

type pgStore struct{ pool *pgxpool.Pool }

func (s *pgStore) ensure(ctx context.Context, db, coll string) (bool, error) {
	var table string
	var keys []string
	q := fmt.Sprintf(
		`SELECT _jsonb->>'table', COALESCE((SELECT array_agg(DISTINCT k) FROM jsonb_array_elements(_jsonb->'indexes') i, jsonb_object_keys(i->'key') k), '{}')
		 FROM %s WHERE _jsonb->'_id' = to_jsonb($1::text)`,
		pgx.Identifier{db, "_ferretdb_database_metadata"}.Sanitize())
	err := s.pool.QueryRow(ctx, q, coll).Scan(&table, &keys)
	var pgErr *pgconn.PgError
	if errors.Is(err, pgx.ErrNoRows) || (errors.As(err, &pgErr) && pgErr.Code == "42P01") {
		return false, nil // no such collection (yet), or no such database
	}
	if err != nil {
		return false, err
	}
	fields := map[string]bool{"_id": true}
	for _, k := range keys {
		// Only top-level fields: the embeddable FerretDB never pushes down a dotted path
		// (EnableNestedPushdown is off), so an index on one would only slow writes down.
		if !strings.ContainsAny(k, ".$") {
			fields[k] = true
		}
	}
	for f := range fields {
		// The exact expression FerretDB's WHERE uses (postgresql/query.go, prepareWhereClause).
		expr := fmt.Sprintf("_jsonb -> %s::text", quoteLiteral(f))
		q := fmt.Sprintf(`CREATE INDEX IF NOT EXISTS %s ON %s USING gin ((%s) jsonb_path_ops)`,
			quoteIdent(indexName(table, expr)), pgx.Identifier{db, table}.Sanitize(), expr)
		if _, err := s.pool.Exec(ctx, q); err != nil {
			return false, err
		}
	}
	return true, nil
}

func (s *pgStore) collections(ctx context.Context) ([][2]string, error) {
	rows, err := s.pool.Query(ctx, `SELECT table_schema FROM information_schema.tables WHERE table_name = '_ferretdb_database_metadata'`)
	if err != nil {
		return nil, err
	}
	schemas, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	var out [][2]string
	for _, db := range schemas {
		rows, err := s.pool.Query(ctx, fmt.Sprintf(`SELECT _jsonb->>'_id' FROM %s`, pgx.Identifier{db, "_ferretdb_database_metadata"}.Sanitize()))
		if err != nil {
			return nil, err
		}
		names, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			out = append(out, [2]string{db, n})
		}
	}
	return out, nil
}

func (s *pgStore) dropAll(ctx context.Context) error {
	rows, err := s.pool.Query(ctx, `SELECT format('%I.%I', schemaname, indexname) FROM pg_indexes WHERE left(indexname, $1) = $2`, len(prefix), prefix)
	if err != nil {
		return err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return err
	}
	for _, n := range names {
		if _, err := s.pool.Exec(ctx, `DROP INDEX IF EXISTS `+n); err != nil {
			return err
		}
	}
	return nil
}

func (s *pgStore) close() { s.pool.Close() }
