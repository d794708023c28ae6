package main

import (
	"strings"
	"testing"
)

// TestConfigMail: the mail block as a host writes it, its defaults
// (the domain from mail.from), the environment's relay, and each mistake
// refused with its key named.
func TestConfigMail(t *testing.T) {
	none := func(string) string { return "" }
	c, err := parseConfig([]byte("mail:\n  relay: smtp.example.org:587\n  from: Tessera <tessera@mail.example.org>\n  listen: \":2525\"\n  user_env: TESSERA_MAIL_USER\n  password_env: TESSERA_MAIL_PASSWORD\n"), "c.yaml", none)
	if err != nil {
		t.Fatal(err)
	}
	if c.Mail.Domain != "mail.example.org" || c.Mail.Listen != ":2525" {
		t.Fatalf("mail block read as %+v", c.Mail)
	}
	if c, err := parseConfig(nil, "", func(k string) string {
		return map[string]string{"TESSERA_MAIL_RELAY": "127.0.0.1:25"}[k]
	}); err == nil || !strings.Contains(err.Error(), "mail.from") {
		t.Fatalf("a relay from the environment without mail.from: %v %+v", err, c)
	}
	if c, err := parseConfig(nil, "", none); err != nil || c.Mail.Relay != "" {
		t.Fatalf("no mail block: mail is off: %v", err)
	}
	for _, bad := range []struct{ yaml, key string }{
		{"mail:\n  listen: \":25\"\n", "mail.listen"},                                       // replies without a way to answer
		{"mail:\n  relay: smtp.example.org\n  from: a@b.org\n", "mail.relay"},               // no port
		{"mail:\n  relay: h:25\n  from: not an address\n", "mail.from"},                     // no address
		{"mail:\n  relay: h:25\n  from: a@b.org\n  dkim:\n    selector: s1\n", "mail.dkim"}, // a selector without its key
		{"mail:\n  relay: h:25\n  from: a@b.org\n  tls_cert: c.pem\n", "mail.tls_cert"},     // a certificate without its key
		{"mail:\n  relay: h:25\n  from: a@b.org\n  listen: \"x\"\n", "mail.listen"},         // not host:port
	} {
		if _, err := parseConfig([]byte(bad.yaml), "c.yaml", none); err == nil || !strings.Contains(err.Error(), bad.key) {
			t.Errorf("%q: %v, want an error naming %s", bad.yaml, err, bad.key)
		}
	}
}
