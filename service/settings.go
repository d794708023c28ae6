package service

import (
	"fmt"
	"strings"
	"time"

	"tessera"
)

// Settings changes the caller's settings: notify, how turn notices reach
// them ("dm", "mail", "both", "none"; "on" and "off" are "dm" and
// "none"), timezone an IANA name ("Europe/Paris"). Empty values leave a
// setting as it is.
func (s *Service) Settings(req Request, notify, timezone string) (Reply, error) {
	ctx := req.Context()
	notify = strings.ToLower(strings.TrimSpace(notify))
	timezone = strings.TrimSpace(timezone)
	switch notify {
	case "on":
		notify = tessera.NotifyDM
	case "off":
		notify = tessera.NotifyNone
	case "", tessera.NotifyDM, tessera.NotifyNone, tessera.NotifyMail, tessera.NotifyBoth:
	default:
		return Reply{}, errorf(tessera.EINVALID, "notify is dm, mail, both or none.")
	}
	if timezone != "" {
		if _, err := time.LoadLocation(timezone); err != nil || strings.EqualFold(timezone, "local") {
			return Reply{}, errorf(tessera.EINVALID, "%s is not a time zone; use a name like Europe/Paris or America/New_York.", typed(timezone))
		}
	}
	if (notify == tessera.NotifyMail || notify == tessera.NotifyBoth) && !s.cfg.Mail {
		return Reply{}, errorf(tessera.EINVALID, "This bot sends no mail; notify is dm or none here.")
	}
	u, err := s.store.UpdateUser(ctx, req.User.ID, func(u *tessera.UserSettings, _ storageTx) error {
		if (notify == tessera.NotifyMail || notify == tessera.NotifyBoth) && u.Email == "" {
			return errorf(tessera.EINVALID, "Link an address first: /settings email:you@example.org, then the code it is sent.")
		}
		if notify != "" {
			u.Notify = notify
			u.NotifyOff = notify == tessera.NotifyNone
			if notify == tessera.NotifyDM || notify == tessera.NotifyBoth {
				u.DMFailed = false
			}
		}
		if timezone != "" {
			u.TimeZone = timezone
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	tz := u.TimeZone
	if tz == "" {
		tz = "UTC"
	}
	return Reply{Text: fmt.Sprintf("%s Time zone: %s.", notifyText(u), tz), Ephemeral: true}, nil
}

// notifyText says how u's turn notices reach them, naming their address
// (the reply is theirs alone).
func notifyText(u tessera.UserSettings) string {
	dm := "Turn notices by direct message: " + onOff(u.ByDM()) + "."
	switch {
	case u.Email == "" && u.EmailPending != "":
		return dm + " Mail: waiting for the code sent to " + u.EmailPending + "."
	case u.Email == "":
		return dm
	}
	return dm + " By mail to " + u.Email + ": " + onOff(u.ByMail()) + "."
}

// ServerSettings changes the server's own settings: web "on"/"off" (its
// game pages and the links to them). Only members who may manage the
// server change them; anyone may read them (web "").
func (s *Service) ServerSettings(req Request, web string) (Reply, error) {
	ctx := req.Context()
	web = strings.ToLower(strings.TrimSpace(web))
	if err := checkServerSettings(req, web); err != nil {
		return Reply{}, err
	}
	g, err := s.store.UpdateGuild(ctx, req.GuildID, func(g *tessera.GuildSettings) error {
		switch web {
		case "on":
			g.WebOff = false
		case "off":
			g.WebOff = true
		}
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	switch {
	case !s.WebOn():
		return Reply{Text: fmt.Sprintf("Game pages of %s: %s (this bot has no pages set up, so there are none either way).", neutralWording.Server, onOff(!g.WebOff)), Ephemeral: true}, nil
	case g.WebOff:
		return Reply{Text: fmt.Sprintf("Game pages of %s: off. Posts carry no link, and the pages and every private link answer \"not found\" until /settings web:on.", neutralWording.Server), Ephemeral: true}, nil
	}
	return Reply{Text: fmt.Sprintf("Game pages of %s: on. Game posts carry a link to their page, and /link gives players their private link.", neutralWording.Server), Ephemeral: true}, nil
}

// onOff is "on" or "off".
func onOff(on bool) string {
	if on {
		return "on"
	}
	return "off"
}

// checkServerSettings refuses a server setting the caller may not change
// (or one that is not a value), before anything is written.
func checkServerSettings(req Request, web string) error {
	if web != "" && web != "on" && web != "off" {
		return errorf(tessera.EINVALID, "web is on or off.")
	}
	if req.GuildID == "" {
		return errorf(tessera.EINVALID, "web: is a server's setting; use it in the server's channels.")
	}
	if web != "" && !req.ManageServer {
		return errorf(tessera.EFORBIDDEN, "Only members with the Manage Server permission may turn this server's game pages on or off.")
	}
	return nil
}
