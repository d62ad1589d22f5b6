package main

// Which write statements narrowMessage rewrites, and into what (narrow.go). The semantics
// through the real driver and the real FerretDB are in shared/src/db/contract.db.test.ts.
// Run by the db project of `pnpm test` (shared/src/devtools/ferretdb-go.db.test.ts).

import (
	"encoding/binary"
	"errors"
	"testing"

	"go.mongodb.org/mongo-driver/bson"
	"go.mongodb.org/mongo-driver/bson/primitive"
	"go.mongodb.org/mongo-driver/x/bsonx/bsoncore"
)

type probeCall struct {
	db, coll string
	id       bsoncore.Value
	filter   bson.Raw
}

// stubProbe answers match (or err) and records what it was asked.
func stubProbe(match bool, err error, calls *[]probeCall) probeFunc {
	return func(db, coll string, id bsoncore.Value, filter bson.Raw) (bool, error) {
		*calls = append(*calls, probeCall{db, coll, id, filter})
		return match, err
	}
}

func doc(t *testing.T, d bson.D) []byte {
	t.Helper()
	b, err := bson.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type seq struct {
	ident string
	docs  [][]byte
}

// opMsgOf builds an OP_MSG: a body, then document sequences.
func opMsgOf(flags uint32, body []byte, seqs ...seq) []byte {
	s := []section{{kind: 0, docs: [][]byte{body}}}
	for _, q := range seqs {
		s = append(s, section{kind: 1, ident: q.ident, docs: q.docs})
	}
	header := make([]byte, 16)
	binary.LittleEndian.PutUint32(header[4:8], 77)
	binary.LittleEndian.PutUint32(header[12:16], opMsg)
	msg := buildMessage(header, flags&^flagChecksum, s)
	if flags&flagChecksum != 0 {
		msg = append(msg, 1, 2, 3, 4)
		binary.LittleEndian.PutUint32(msg[0:4], uint32(len(msg)))
		binary.LittleEndian.PutUint32(msg[16:20], flags)
	}
	return msg
}

func narrow(t *testing.T, msg []byte, probe probeFunc) ([]byte, narrowResult, string, bson.Raw) {
	t.Helper()
	flags := binary.LittleEndian.Uint32(msg[16:20])
	body := commandBody(msg, flags)
	cmd := commandName(body)
	out, res := narrowMessage(msg, flags, cmd, body, probe)
	return out, res, cmd, body
}

// statementOf returns the only statement of an update/delete message (body or sequence).
func statementOf(t *testing.T, msg []byte, field string) bson.Raw {
	t.Helper()
	flags := binary.LittleEndian.Uint32(msg[16:20])
	if int(binary.LittleEndian.Uint32(msg[0:4])) != len(msg) {
		t.Fatalf("message length %d, header says %d", len(msg), binary.LittleEndian.Uint32(msg[0:4]))
	}
	sections, ok := parseSections(msg, flags)
	if !ok {
		t.Fatal("unparsable message")
	}
	for _, s := range sections {
		if s.kind == 1 && s.ident == field {
			if len(s.docs) != 1 {
				t.Fatalf("%d statements", len(s.docs))
			}
			return s.docs[0]
		}
	}
	body := commandBody(msg, flags)
	vals, err := body.Lookup(field).Array().Values()
	if err != nil || len(vals) != 1 {
		t.Fatalf("statements: %v %v", vals, err)
	}
	return vals[0].Document()
}

func wantFilter(t *testing.T, got bson.Raw, want bson.D) {
	t.Helper()
	if !bytesEqual(got, doc(t, want)) {
		t.Fatalf("filter %v, want %v", got, want)
	}
}

func bytesEqual(a, b []byte) bool { return string(a) == string(b) }

func updateBody(t *testing.T, extra ...bson.E) []byte {
	return doc(t, append(bson.D{{Key: "update", Value: "rows"}, {Key: "ordered", Value: true}}, append(extra, bson.E{Key: "$db", Value: "app"})...))
}

func TestNarrowUpdateSequenceMatching(t *testing.T) {
	var calls []probeCall
	q := bson.D{{Key: "_id", Value: "r1"}, {Key: "version", Value: int32(3)}}
	stmt := doc(t, bson.D{{Key: "q", Value: q}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}, {Key: "$inc", Value: bson.D{{Key: "version", Value: 1}}}}}, {Key: "multi", Value: false}})
	msg := opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt}})

	out, res, _, _ := narrow(t, msg, stubProbe(true, nil, &calls))
	if res != narrowMatch || out == nil {
		t.Fatalf("not narrowed: %v", res)
	}
	if len(calls) != 1 || calls[0].db != "app" || calls[0].coll != "rows" || calls[0].id.StringValue() != "r1" || !bytesEqual(calls[0].filter, doc(t, q)) {
		t.Fatalf("probe asked %+v", calls)
	}
	got := statementOf(t, out, "updates")
	wantFilter(t, got.Lookup("q").Document(), bson.D{{Key: "_id", Value: "r1"}})
	if !bytesEqual(got.Lookup("u").Document(), bson.Raw(stmt).Lookup("u").Document()) || got.Lookup("multi").Boolean() {
		t.Fatalf("statement changed beyond q: %v", got)
	}
	if !bytesEqual(commandBody(out, 0), commandBody(msg, 0)) || !bytesEqual(out[4:16], msg[4:16]) {
		t.Fatal("body or header changed")
	}
}

func TestNarrowUpdateNotMatching(t *testing.T) {
	var calls []probeCall
	stmt := doc(t, bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: "r1"}, {Key: "version", Value: int32(3)}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}}})
	out, res, _, _ := narrow(t, opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt}}), stubProbe(false, nil, &calls))
	if res != narrowNoMatch {
		t.Fatalf("result %v", res)
	}
	wantFilter(t, statementOf(t, out, "updates").Lookup("q").Document(), bson.D{{Key: "_id", Value: noMatchID}})
}

func TestNarrowUpdateInBody(t *testing.T) {
	var calls []probeCall
	oid := primitive.NewObjectID()
	stmt := bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: oid}, {Key: "$or", Value: bson.A{bson.D{{Key: "a", Value: 1}}, bson.D{{Key: "b.c", Value: 2}}}}}}, {Key: "u", Value: bson.D{{Key: "x", Value: 1}}}}
	msg := opMsgOf(0, updateBody(t, bson.E{Key: "updates", Value: bson.A{stmt}}))
	out, res, _, _ := narrow(t, msg, stubProbe(true, nil, &calls))
	if res != narrowMatch {
		t.Fatalf("result %v", res)
	}
	wantFilter(t, statementOf(t, out, "updates").Lookup("q").Document(), bson.D{{Key: "_id", Value: oid}})
	if commandName(commandBody(out, 0)) != "update" {
		t.Fatal("command name moved")
	}
}

func TestNarrowUpsert(t *testing.T) {
	stmt := doc(t, bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: "r1"}, {Key: "v", Value: 1}}}, {Key: "u", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}}, {Key: "upsert", Value: true}})
	msg := opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt}})
	var calls []probeCall
	if out, res, _, _ := narrow(t, msg, stubProbe(false, nil, &calls)); out != nil || res != narrowNone {
		t.Fatal("an upsert that does not match must insert from its own filter")
	}
	out, res, _, _ := narrow(t, msg, stubProbe(true, nil, &calls))
	if res != narrowMatch {
		t.Fatalf("an upsert that matches is an update: %v", res)
	}
	if !statementOf(t, out, "updates").Lookup("upsert").Boolean() {
		t.Fatal("upsert flag lost")
	}
}

func TestNarrowLeavesAlone(t *testing.T) {
	set := bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}
	q := bson.D{{Key: "_id", Value: "r1"}, {Key: "v", Value: 1}}
	stmt := func(extra ...bson.E) []byte {
		return doc(t, append(bson.D{{Key: "q", Value: q}, {Key: "u", Value: set}}, extra...))
	}
	withQ := func(q bson.D) []byte { return doc(t, bson.D{{Key: "q", Value: q}, {Key: "u", Value: set}}) }
	withU := func(u any) []byte { return doc(t, bson.D{{Key: "q", Value: q}, {Key: "u", Value: u}}) }
	cases := map[string][]byte{
		"two statements":    opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt(), withQ(bson.D{{Key: "_id", Value: "r2"}, {Key: "v", Value: 1}})}}),
		"only _id":          opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withQ(bson.D{{Key: "_id", Value: "r1"}})}}),
		"no _id":            opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withQ(bson.D{{Key: "slug", Value: "a"}, {Key: "v", Value: 1}})}}),
		"_id operator":      opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withQ(bson.D{{Key: "_id", Value: bson.D{{Key: "$in", Value: bson.A{"r1"}}}}, {Key: "v", Value: 1}})}}),
		"_id number":        opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withQ(bson.D{{Key: "_id", Value: int32(1)}, {Key: "v", Value: 1}})}}),
		"two _id":           opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withQ(bson.D{{Key: "_id", Value: "r1"}, {Key: "_id", Value: "r2"}})}}),
		"positional $":      opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withU(bson.D{{Key: "$set", Value: bson.D{{Key: "items.$.done", Value: true}}}})}}),
		"positional $[]":    opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withU(bson.D{{Key: "$inc", Value: bson.D{{Key: "items.$[].n", Value: 1}}}})}}),
		"positional $[x]":   opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withU(bson.D{{Key: "$set", Value: bson.D{{Key: "items.$[x].n", Value: 1}}}})}}),
		"pipeline update":   opMsgOf(0, updateBody(t), seq{"updates", [][]byte{withU(bson.A{bson.D{{Key: "$set", Value: bson.D{{Key: "a", Value: 1}}}}})}}),
		"arrayFilters":      opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt(bson.E{Key: "arrayFilters", Value: bson.A{}})}}),
		"collation":         opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt(bson.E{Key: "collation", Value: bson.D{{Key: "locale", Value: "fr"}}})}}),
		"hint":              opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt(bson.E{Key: "hint", Value: "_id_"})}}),
		"let":               opMsgOf(0, updateBody(t, bson.E{Key: "let", Value: bson.D{{Key: "x", Value: 1}}}), seq{"updates", [][]byte{stmt()}}),
		"moreToCome":        opMsgOf(flagMoreComes, updateBody(t), seq{"updates", [][]byte{stmt()}}),
		"body and sequence": opMsgOf(0, updateBody(t, bson.E{Key: "updates", Value: bson.A{q}}), seq{"updates", [][]byte{stmt()}}),
		"delete hint":       opMsgOf(0, doc(t, bson.D{{Key: "delete", Value: "rows"}, {Key: "$db", Value: "app"}}), seq{"deletes", [][]byte{doc(t, bson.D{{Key: "q", Value: q}, {Key: "limit", Value: 1}, {Key: "hint", Value: "_id_"}})}}),
	}
	fam := func(extra ...bson.E) []byte {
		return opMsgOf(0, doc(t, append(append(bson.D{{Key: "findAndModify", Value: "rows"}, {Key: "query", Value: q}}, extra...), bson.E{Key: "$db", Value: "app"})))
	}
	cases["findAndModify sort"] = fam(bson.E{Key: "sort", Value: bson.D{{Key: "a", Value: 1}}}, bson.E{Key: "update", Value: set})
	cases["findAndModify positional"] = fam(bson.E{Key: "update", Value: bson.D{{Key: "$set", Value: bson.D{{Key: "a.$", Value: 1}}}}})
	cases["findAndModify pipeline"] = fam(bson.E{Key: "update", Value: bson.A{set}})
	cases["findAndModify arrayFilters"] = fam(bson.E{Key: "update", Value: set}, bson.E{Key: "arrayFilters", Value: bson.A{}})

	for name, msg := range cases {
		t.Run(name, func(t *testing.T) {
			var calls []probeCall
			out, res, _, _ := narrow(t, msg, stubProbe(true, nil, &calls))
			if out != nil || res != narrowNone {
				t.Fatalf("narrowed (%v)", res)
			}
			if len(calls) != 0 {
				t.Fatalf("probed %+v", calls)
			}
		})
	}
}

func TestNarrowProbeFails(t *testing.T) {
	var calls []probeCall
	stmt := doc(t, bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: "r1"}, {Key: "v", Value: bson.D{{Key: "$bad", Value: 1}}}}}, {Key: "u", Value: bson.D{{Key: "a", Value: 1}}}})
	out, res, _, _ := narrow(t, opMsgOf(0, updateBody(t), seq{"updates", [][]byte{stmt}}), stubProbe(false, errors.New("unknown operator"), &calls))
	if out != nil || res != narrowNone || len(calls) != 1 {
		t.Fatalf("narrowed after a failed probe: %v", res)
	}
}

func TestNarrowDelete(t *testing.T) {
	var calls []probeCall
	body := doc(t, bson.D{{Key: "delete", Value: "pages"}, {Key: "ordered", Value: true}, {Key: "$db", Value: "app"}})
	stmt := doc(t, bson.D{{Key: "q", Value: bson.D{{Key: "_id", Value: "p1"}, {Key: "version", Value: int64(9)}}}, {Key: "limit", Value: int32(1)}})
	out, res, _, _ := narrow(t, opMsgOf(0, body, seq{"deletes", [][]byte{stmt}}), stubProbe(true, nil, &calls))
	if res != narrowMatch {
		t.Fatalf("result %v", res)
	}
	got := statementOf(t, out, "deletes")
	wantFilter(t, got.Lookup("q").Document(), bson.D{{Key: "_id", Value: "p1"}})
	if got.Lookup("limit").Int32() != 1 {
		t.Fatal("limit lost")
	}
}

func TestNarrowFindAndModify(t *testing.T) {
	for _, name := range []string{"findAndModify", "findandmodify"} {
		var calls []probeCall
		body := doc(t, bson.D{
			{Key: name, Value: "members"},
			{Key: "query", Value: bson.D{{Key: "_id", Value: "m1"}, {Key: "writing.since", Value: int64(5)}}},
			{Key: "update", Value: bson.D{{Key: "$unset", Value: bson.D{{Key: "writing", Value: ""}}}}},
			{Key: "new", Value: true},
			{Key: "sort", Value: bson.D{}},
			{Key: "$db", Value: "app"},
		})
		msg := opMsgOf(flagChecksum, body)
		out, res, _, _ := narrow(t, msg, stubProbe(false, nil, &calls))
		if res != narrowNoMatch {
			t.Fatalf("%s: result %v", name, res)
		}
		flags := binary.LittleEndian.Uint32(out[16:20])
		if flags&flagChecksum != 0 || int(binary.LittleEndian.Uint32(out[0:4])) != len(out) {
			t.Fatal("checksum flag kept for changed sections, or bad length")
		}
		got := commandBody(out, flags)
		if commandName(got) != name || !got.Lookup("new").Boolean() {
			t.Fatalf("body %v", got)
		}
		wantFilter(t, got.Lookup("query").Document(), bson.D{{Key: "_id", Value: noMatchID}})
	}
}

func TestNoMatchIDIsUnlikely(t *testing.T) {
	if len(noMatchID) < 40 || noMatchID[0] != 0 {
		t.Fatalf("noMatchID %q", noMatchID)
	}
}
