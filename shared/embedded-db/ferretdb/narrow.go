// Narrowing: write filters FerretDB's SQLite backend can push down.
//
// FerretDB v1 on SQLite pushes a filter down to SQL only when it is exactly
// {_id: <string|ObjectId>} (internal/backends/sqlite/collection.go: `params.Filter.Len() == 1`);
// any other filter decodes every document of the collection. Atelier's compare-and-swap
// writes all look like {_id: X, version: 3, ...}, so with 110,000 rows stored each such
// update read them all (2.2–2.7 s per update_row, docs/performance.md).
//
// The front holds the write lock while a write command runs, so nothing can change a
// document between two commands it sends. For an update, delete or findAndModify of one
// statement whose filter has a top-level _id equal to a string or ObjectId and other
// conditions, it first asks FerretDB whether that one document matches the whole filter,
// with an aggregate whose first $match is exactly {_id: X} (pushed down:
// msg_aggregate.go → aggregations.GetPushdownQuery) and whose second $match is the whole
// filter, evaluated by the same common.FilterIterator the write would use. Then it
// rewrites the statement's filter to exactly {_id: X} (it matches) or to {_id: <noMatchID>}
// (it does not: a random string no document has), both pushed down, and sends the command.
// The answer (n, nModified, the returned document) is the one the original filter gives.
//
// A statement is left as it is (a scan, as before) whenever the rewrite could change what
// it does: more than one statement in the command (an earlier one can change what a later
// one matches, and the probe runs before the command), an upsert that does not match (the
// inserted document is built from the filter), `let`, `collation`, `hint`, `arrayFilters`,
// a positional `$` in the update (it needs the array element the filter matched), a sort on
// findAndModify, a pipeline update, an _id condition that is not a plain string or ObjectId,
// a filter that is only {_id: X} already, and any probe that fails.
package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"net"
	"strings"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/bsontype"
	"go.mongodb.org/mongo-driver/x/bsonx/bsoncore"
)

// probeFunc reports whether the document {_id: id} of db.coll matches filter.
type probeFunc func(db, coll string, id bsoncore.Value, filter bson.Raw) (bool, error)

// noMatchID is an _id no document has: 128 random bits, drawn once per process.
var noMatchID = func() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return "\x00atelier-no-match-" + hex.EncodeToString(b[:])
}()

// narrowResult says what narrowMessage did with a command's statement.
type narrowResult int

const (
	narrowNone    narrowResult = iota // left as it was
	narrowMatch                       // filter → {_id: X}
	narrowNoMatch                     // filter → {_id: noMatchID}
)

// section is one OP_MSG section: kind 0 (body) or kind 1 (document sequence).
type section struct {
	kind  byte
	ident string   // kind 1
	docs  [][]byte // kind 0: one document
}

// narrowMessage returns msg with its one statement's filter narrowed, or nil when it leaves
// the message as it is. cmd is the command name and body the kind-0 section.
func narrowMessage(msg []byte, flags uint32, cmd string, body bson.Raw, probe probeFunc) ([]byte, narrowResult) {
	if flags&flagMoreComes != 0 {
		// Unacknowledged: nobody reads the answer, and the original filter would still work.
		return nil, narrowNone
	}
	if _, err := body.LookupErr("let"); err == nil {
		return nil, narrowNone
	}
	db, ok := body.Lookup("$db").StringValueOK()
	if !ok {
		return nil, narrowNone
	}
	coll, ok := body.Lookup(cmd).StringValueOK()
	if !ok {
		return nil, narrowNone
	}
	sections, ok := parseSections(msg, flags)
	if !ok {
		return nil, narrowNone
	}

	switch cmd {
	case "update", "delete":
		field := "updates"
		if cmd == "delete" {
			field = "deletes"
		}
		// The statements: an array in the body, or a kind-1 sequence (what the Node driver sends).
		var stmts []bson.Raw
		where := -1 // the kind-1 section holding them, or -1 for the body
		if v, err := body.LookupErr(field); err == nil {
			arr, ok := v.ArrayOK()
			if !ok {
				return nil, narrowNone
			}
			vals, err := arr.Values()
			if err != nil {
				return nil, narrowNone
			}
			for _, v := range vals {
				d, ok := v.DocumentOK()
				if !ok {
					return nil, narrowNone
				}
				stmts = append(stmts, d)
			}
		}
		for i, s := range sections {
			if s.kind == 1 && s.ident == field {
				if where != -1 || stmts != nil {
					return nil, narrowNone
				}
				where = i
				for _, d := range s.docs {
					stmts = append(stmts, bson.Raw(d))
				}
			}
		}
		if len(stmts) != 1 {
			return nil, narrowNone
		}
		stmt := stmts[0]
		if cmd == "update" && !updateStatementNarrowable(stmt) || cmd == "delete" && !deleteStatementNarrowable(stmt) {
			return nil, narrowNone
		}
		q, ok := stmt.Lookup("q").DocumentOK()
		if !ok {
			return nil, narrowNone
		}
		upsert, _ := stmt.Lookup("upsert").BooleanOK()
		newQ, res := narrowFilter(db, coll, q, upsert, probe)
		if res == narrowNone {
			return nil, narrowNone
		}
		newStmt := replaceField(stmt, "q", newQ)
		if where >= 0 {
			sections[where].docs[0] = newStmt
		} else {
			arr := bsoncore.NewArrayBuilder().AppendDocument(newStmt).Build()
			newBody := replaceFieldValue(body, field, bsoncore.Value{Type: bsontype.Array, Data: arr})
			if !setBody(sections, newBody) {
				return nil, narrowNone
			}
		}
		return buildMessage(msg, flags, sections), res

	case "findAndModify", "findandmodify":
		if !findAndModifyNarrowable(body) {
			return nil, narrowNone
		}
		q, ok := body.Lookup("query").DocumentOK()
		if !ok {
			return nil, narrowNone
		}
		upsert, _ := body.Lookup("upsert").BooleanOK()
		newQ, res := narrowFilter(db, coll, q, upsert, probe)
		if res == narrowNone {
			return nil, narrowNone
		}
		if !setBody(sections, replaceField(body, "query", newQ)) {
			return nil, narrowNone
		}
		return buildMessage(msg, flags, sections), res
	}
	return nil, narrowNone
}

// narrowFilter returns the narrowed filter for q, or narrowNone.
func narrowFilter(db, coll string, q bson.Raw, upsert bool, probe probeFunc) (bson.Raw, narrowResult) {
	elems, err := q.Elements()
	if err != nil || len(elems) < 2 {
		return nil, narrowNone // {} or already exactly {_id: X}
	}
	var id bson.RawValue
	ids := 0
	for _, e := range elems {
		if e.Key() == "_id" {
			ids++
			id = e.Value()
		}
	}
	if ids != 1 || id.Type != bsontype.String && id.Type != bsontype.ObjectID {
		return nil, narrowNone
	}
	idv := bsoncore.Value{Type: id.Type, Data: id.Value}
	match, err := probe(db, coll, idv, q)
	if err != nil {
		return nil, narrowNone // FerretDB will give the same error, or do what it always did
	}
	if match {
		return bson.Raw(bsoncore.NewDocumentBuilder().AppendValue("_id", idv).Build()), narrowMatch
	}
	if upsert {
		return nil, narrowNone // the document to insert is built from the filter
	}
	return bson.Raw(bsoncore.NewDocumentBuilder().AppendString("_id", noMatchID).Build()), narrowNoMatch
}

func updateStatementNarrowable(stmt bson.Raw) bool {
	for _, k := range []string{"collation", "hint", "arrayFilters"} {
		if _, err := stmt.LookupErr(k); err == nil {
			return false
		}
	}
	u, ok := stmt.Lookup("u").DocumentOK()
	return ok && !hasPositional(u)
}

func deleteStatementNarrowable(stmt bson.Raw) bool {
	for _, k := range []string{"collation", "hint"} {
		if _, err := stmt.LookupErr(k); err == nil {
			return false
		}
	}
	return true
}

func findAndModifyNarrowable(body bson.Raw) bool {
	for _, k := range []string{"collation", "hint", "arrayFilters"} {
		if _, err := body.LookupErr(k); err == nil {
			return false
		}
	}
	if v, err := body.LookupErr("sort"); err == nil {
		d, ok := v.DocumentOK()
		if !ok {
			return false
		}
		if n, err := d.Elements(); err != nil || len(n) > 0 {
			return false
		}
	}
	if v, err := body.LookupErr("update"); err == nil {
		u, ok := v.DocumentOK() // a pipeline (array) is left alone
		if !ok || hasPositional(u) {
			return false
		}
	}
	return true
}

// hasPositional reports whether an update document uses a positional operator ($, $[],
// $[id]) in a field path, or anything it cannot read. Replacement documents have none.
func hasPositional(u bson.Raw) bool {
	elems, err := u.Elements()
	if err != nil {
		return true
	}
	for _, e := range elems {
		if !strings.HasPrefix(e.Key(), "$") {
			continue
		}
		fields, ok := e.Value().DocumentOK()
		if !ok {
			return true
		}
		fes, err := fields.Elements()
		if err != nil {
			return true
		}
		for _, f := range fes {
			if pathHasDollar(f.Key()) {
				return true
			}
			if s, ok := f.Value().StringValueOK(); ok && e.Key() == "$rename" && pathHasDollar(s) {
				return true
			}
		}
	}
	return false
}

func pathHasDollar(path string) bool {
	for _, part := range strings.Split(path, ".") {
		if strings.HasPrefix(part, "$") {
			return true
		}
	}
	return false
}

// replaceField returns doc with the value of key replaced by the document v.
func replaceField(doc bson.Raw, key string, v bson.Raw) []byte {
	return replaceFieldValue(doc, key, bsoncore.Value{Type: bsontype.EmbeddedDocument, Data: v})
}

func replaceFieldValue(doc bson.Raw, key string, v bsoncore.Value) []byte {
	idx, out := bsoncore.AppendDocumentStart(nil)
	elems, _ := bsoncore.Document(doc).Elements()
	for _, e := range elems {
		if e.Key() == key {
			out = bsoncore.AppendValueElement(out, key, v)
		} else {
			out = append(out, e...)
		}
	}
	out, _ = bsoncore.AppendDocumentEnd(out, idx)
	return out
}

func setBody(sections []section, body []byte) bool {
	for i := range sections {
		if sections[i].kind == 0 {
			sections[i].docs = [][]byte{body}
			return true
		}
	}
	return false
}

// parseSections splits an OP_MSG's sections; false if it is malformed or has a kind we do
// not know.
func parseSections(msg []byte, flags uint32) ([]section, bool) {
	end := len(msg)
	if flags&flagChecksum != 0 {
		end -= 4
	}
	var out []section
	for i := 20; i < end; {
		kind := msg[i]
		i++
		if i+4 > end {
			return nil, false
		}
		size := int(int32(binary.LittleEndian.Uint32(msg[i : i+4])))
		switch kind {
		case 0:
			if size < 5 || i+size > end {
				return nil, false
			}
			out = append(out, section{kind: 0, docs: [][]byte{msg[i : i+size]}})
		case 1:
			if size < 5 || i+size > end {
				return nil, false
			}
			seq := msg[i+4 : i+size]
			nul := strings.IndexByte(string(seq), 0)
			if nul < 0 {
				return nil, false
			}
			s := section{kind: 1, ident: string(seq[:nul])}
			for rest := seq[nul+1:]; len(rest) > 0; {
				if len(rest) < 5 {
					return nil, false
				}
				n := int(int32(binary.LittleEndian.Uint32(rest[:4])))
				if n < 5 || n > len(rest) {
					return nil, false
				}
				s.docs = append(s.docs, rest[:n])
				rest = rest[n:]
			}
			out = append(out, s)
		default:
			return nil, false
		}
		i += size
	}
	return out, true
}

// buildMessage makes an OP_MSG with msg's header and flags (without a checksum: the
// sections changed, and the checksum is optional) and the given sections.
func buildMessage(msg []byte, flags uint32, sections []section) []byte {
	out := make([]byte, 20, len(msg)+64)
	copy(out, msg[:16])
	binary.LittleEndian.PutUint32(out[16:20], flags&^flagChecksum)
	for _, s := range sections {
		out = append(out, s.kind)
		if s.kind == 0 {
			out = append(out, s.docs[0]...)
			continue
		}
		start := len(out)
		out = append(out, 0, 0, 0, 0)
		out = append(out, s.ident...)
		out = append(out, 0)
		for _, d := range s.docs {
			out = append(out, d...)
		}
		binary.LittleEndian.PutUint32(out[start:], uint32(len(out)-start))
	}
	binary.LittleEndian.PutUint32(out[0:4], uint32(len(out)))
	return out
}

// backendProbe asks FerretDB, on the connection conn (idle between two commands of its
// client), whether {_id: id} of db.coll matches filter.
func backendProbe(conn net.Conn, requestID *int32) probeFunc {
	return func(db, coll string, id bsoncore.Value, filter bson.Raw) (bool, error) {
		byID := bsoncore.NewDocumentBuilder().AppendValue("_id", id).Build()
		pipeline := bsoncore.NewArrayBuilder().
			AppendDocument(bsoncore.NewDocumentBuilder().AppendDocument("$match", byID).Build()).
			AppendDocument(bsoncore.NewDocumentBuilder().AppendDocument("$match", filter).Build()).
			AppendDocument(bsoncore.NewDocumentBuilder().AppendInt32("$limit", 1).Build()).
			AppendDocument(bsoncore.NewDocumentBuilder().AppendDocument("$project",
				bsoncore.NewDocumentBuilder().AppendInt32("_id", 1).Build()).Build()).
			Build()
		cmd := bsoncore.NewDocumentBuilder().
			AppendString("aggregate", coll).
			AppendArray("pipeline", pipeline).
			AppendDocument("cursor", bsoncore.NewDocumentBuilder().Build()).
			AppendString("$db", db).
			Build()

		*requestID++
		req := make([]byte, 21, 21+len(cmd))
		binary.LittleEndian.PutUint32(req[4:8], uint32(*requestID))
		binary.LittleEndian.PutUint32(req[12:16], opMsg)
		req = append(req, cmd...)
		binary.LittleEndian.PutUint32(req[0:4], uint32(len(req)))
		// An I/O error leaves the connection in an unknown state: close it, so that the client's
		// command fails (and the driver retries) rather than read another request's answer.
		if _, err := conn.Write(req); err != nil {
			conn.Close()
			return false, err
		}
		resp, err := readMessage(conn)
		if err != nil {
			conn.Close()
			return false, err
		}
		if binary.LittleEndian.Uint32(resp[12:16]) != opMsg || len(resp) < 21 ||
			int32(binary.LittleEndian.Uint32(resp[8:12])) != *requestID {
			conn.Close()
			return false, errProbe
		}
		flags := binary.LittleEndian.Uint32(resp[16:20])
		if flags&flagMoreComes != 0 {
			conn.Close()
			return false, errProbe
		}
		body := commandBody(resp, flags)
		if ok, _ := body.Lookup("ok").AsInt64OK(); ok != 1 {
			return false, errProbe
		}
		if cid, _ := body.Lookup("cursor", "id").AsInt64OK(); cid != 0 {
			return false, errProbe
		}
		batch, ok := body.Lookup("cursor", "firstBatch").ArrayOK()
		if !ok {
			return false, errProbe
		}
		docs, err := batch.Values()
		if err != nil {
			return false, errProbe
		}
		return len(docs) > 0, nil
	}
}

var errProbe = errors.New("probe failed")
