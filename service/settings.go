package service

import (
	"fmt"
	"strings"
	"time"

	"tessera"
)

// Settings changes the caller's settings: notify "on"/"off" (turn
// notices by direct message), timezone an IANA name ("Europe/Paris").
// Empty values leave a setting as it is.
func (s *Service) Settings(req Request, notify, timezone string) (Reply, error) {
	ctx := req.Context()
	notify = strings.ToLower(strings.TrimSpace(notify))
	timezone = strings.TrimSpace(timezone)
	if notify != "" && notify != "on" && notify != "off" {
		return Reply{}, errorf(tessera.EINVALID, "notify is on or off.")
	}
	if timezone != "" {
		if _, err := time.LoadLocation(timezone); err != nil || strings.EqualFold(timezone, "local") {
			return Reply{}, errorf(tessera.EINVALID, "%s is not a time zone; use a name like Europe/Paris or America/New_York.", typed(timezone))
		}
	}
	u, err := s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, _ storageTx) error {
		switch notify {
		case "on":
			u.NotifyOff, u.DMFailed = false, false
		case "off":
			u.NotifyOff = true
		}
		if timezone != "" {
			u.TimeZone = timezone
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	state := "on"
	if u.NotifyOff {
		state = "off"
	}
	tz := u.TimeZone
	if tz == "" {
		tz = "UTC"
	}
	return Reply{Text: fmt.Sprintf("Turn notices by direct message: %s. Time zone: %s.", state, tz), Ephemeral: true}, nil
}
