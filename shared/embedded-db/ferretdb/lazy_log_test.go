package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// The lazy handler writes what the text handler would, With and WithGroup included.
func TestLazyHandlerWritesAsTheTextHandler(t *testing.T) {
	opts := &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey && len(groups) == 0 {
				return slog.Attr{}
			}
			return a
		},
	}
	var direct, lazy bytes.Buffer
	log := func(l *slog.Logger) {
		l.With("a", 1).WithGroup("g").With("b", "two words").Error("failed", "c", 3)
		l.With("args", []any{"x"}).Debug("not written")
		l.Info("plain")
	}
	log(slog.New(slog.NewTextHandler(&direct, opts)))
	log(slog.New(newLazyHandler(slog.NewTextHandler(&lazy, opts))))
	if lazy.String() != direct.String() {
		t.Fatalf("lazy wrote\n%s\nthe text handler\n%s", lazy.String(), direct.String())
	}
	if !strings.Contains(lazy.String(), `g.b="two words"`) || strings.Contains(lazy.String(), "not written") {
		t.Fatalf("unexpected output:\n%s", lazy.String())
	}
}

// A With below the enabled level formats nothing: the attribute's value is never asked for.
func TestLazyHandlerDoesNotFormatUnlessWritten(t *testing.T) {
	var out bytes.Buffer
	l := slog.New(newLazyHandler(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: slog.LevelError})))
	v := &countingValuer{}
	l.With("doc", v).Debug("skipped")
	if v.n != 0 || out.Len() != 0 {
		t.Fatalf("formatted %d times, wrote %q", v.n, out.String())
	}
	l.With("doc", v).Error("written")
	if v.n != 1 {
		t.Fatalf("formatted %d times for one written record", v.n)
	}
}

type countingValuer struct{ n int }

func (c *countingValuer) LogValue() slog.Value {
	c.n++
	return slog.StringValue("doc")
}
