package service

import (
	"context"
)

// Context is the request's context, which every store call made for the
// request runs on: the transport sets it (WithContext) to end the work
// when whoever asked is gone. A Request without one has
// context.Background(), as an http.Request does.
func (r Request) Context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// WithContext returns a copy of r whose Context is ctx.
func (r Request) WithContext(ctx context.Context) Request {
	if ctx == nil {
		panic("service: nil context")
	}
	r.ctx = ctx
	return r
}
