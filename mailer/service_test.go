package mailer_test

import (
	"tessera/mailer"
	"tessera/service"
)

// The service the wiring hands the mail transport is its Service.
var _ mailer.Service = (*service.Service)(nil)
