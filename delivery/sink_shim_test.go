package delivery_test

import "tessera/delivery/deliverytest"

// The fake transport of these tests is deliverytest's, shared with the
// service's tests; these names keep the tests short.
type (
	sent          = deliverytest.Sent
	fakeSink      = deliverytest.FakeSink
	testPresenter = deliverytest.Presenter
)

func newSink() *fakeSink                   { return deliverytest.NewSink() }
func of(log []sent, kind string) []sent    { return deliverytest.Of(log, kind) }
func dmsTo(log []sent, user string) []sent { return deliverytest.DMsTo(log, user) }
func texts(log []sent) string              { return deliverytest.Texts(log) }
