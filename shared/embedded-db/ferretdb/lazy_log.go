package main

import (
	"context"
	"log/slog"
)

// lazyHandler defers a logger's With and WithGroup until a record is handled.
//
// FerretDB's SQL layer calls Logger.With(args...) for every statement it runs, before it
// logs at debug level; slog's text handler formats those attributes (the documents being
// written, quoted) at once, whether or not debug is enabled. That was ~10 % of the embedded
// database's CPU under a 100-row insert (docs/performance.md). Kept here, the attributes
// cost a slice append and are formatted only for a record that is written.
type lazyHandler struct {
	inner slog.Handler
	ops   []lazyOp
}

// lazyOp is one deferred With (attrs) or WithGroup (group).
type lazyOp struct {
	attrs []slog.Attr
	group string
}

func newLazyHandler(inner slog.Handler) slog.Handler { return &lazyHandler{inner: inner} }

func (h *lazyHandler) Enabled(ctx context.Context, level slog.Level) bool {
	return h.inner.Enabled(ctx, level)
}

func (h *lazyHandler) Handle(ctx context.Context, r slog.Record) error {
	inner := h.inner
	for _, op := range h.ops {
		if op.attrs != nil {
			inner = inner.WithAttrs(op.attrs)
		} else {
			inner = inner.WithGroup(op.group)
		}
	}
	return inner.Handle(ctx, r)
}

func (h *lazyHandler) with(op lazyOp) *lazyHandler {
	ops := make([]lazyOp, len(h.ops), len(h.ops)+1)
	copy(ops, h.ops)
	return &lazyHandler{inner: h.inner, ops: append(ops, op)}
}

func (h *lazyHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if len(attrs) == 0 {
		return h
	}
	return h.with(lazyOp{attrs: attrs})
}

func (h *lazyHandler) WithGroup(name string) slog.Handler {
	if name == "" {
		return h
	}
	return h.with(lazyOp{group: name})
}
