package mail_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"testing"

	tmail "tessera/mail"
)

// LoadDKIM reads the key formats openssl and ssh-keygen write, and says
// clearly when the file holds none.
func TestLoadDKIM(t *testing.T) {
	dir := t.TempDir()
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	pkcs8 := func(k any) []byte {
		b, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: b})
	}
	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"rsa-pkcs1.pem", pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(rsaKey)}), nil},
		{"rsa-pkcs8.pem", pkcs8(rsaKey), nil},
		{"ed25519.pem", pkcs8(edKey), nil},
		{"public.pem", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: []byte("x")}), tmail.ErrDKIMKey},
		{"garbage.pem", []byte("not a key"), tmail.ErrDKIMKey},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, tt.name)
		if err := os.WriteFile(path, tt.data, 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := tmail.LoadDKIM("tessera.example", "s1", path)
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, err, tt.want)
			continue
		}
		if err == nil {
			if _, err := d.Sign([]byte("From: a@b\r\nSubject: x\r\n\r\nbody\r\n")); err != nil {
				t.Errorf("%s: Sign: %v", tt.name, err)
			}
		}
	}
	if _, err := tmail.LoadDKIM("tessera.example", "s1", filepath.Join(dir, "missing.pem")); err == nil {
		t.Error("a missing key file loads")
	}
}
