package mail

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"

	"github.com/emersion/go-msgauth/dkim"
)

// DKIM signs outgoing mail for one domain and selector (the TXT record
// <selector>._domainkey.<domain> holds the public key: docs/mail.md).
type DKIM struct {
	opts dkim.SignOptions
}

// ErrDKIMKey is a key file that holds no RSA or Ed25519 private key.
var ErrDKIMKey = errors.New("mail: the DKIM key file holds no RSA or Ed25519 private key in PEM")

// LoadDKIM reads a PEM private key (PKCS#1 or PKCS#8; RSA or Ed25519)
// from keyFile.
func LoadDKIM(domain, selector, keyFile string) (*DKIM, error) {
	b, err := os.ReadFile(keyFile)
	if err != nil {
		return nil, fmt.Errorf("mail: DKIM key: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, ErrDKIMKey
	}
	var key any
	if key, err = x509.ParsePKCS8PrivateKey(block.Bytes); err != nil {
		if key, err = x509.ParsePKCS1PrivateKey(block.Bytes); err != nil {
			return nil, ErrDKIMKey
		}
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, ErrDKIMKey
	}
	return NewDKIM(domain, selector, signer)
}

// NewDKIM signs with signer, relaxed/relaxed, over the headers a notice
// carries.
func NewDKIM(domain, selector string, signer crypto.Signer) (*DKIM, error) {
	d := &DKIM{opts: dkim.SignOptions{
		Domain:                 domain,
		Selector:               selector,
		Signer:                 signer,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed,
		BodyCanonicalization:   dkim.CanonicalizationRelaxed,
		HeaderKeys: []string{"From", "To", "Reply-To", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
			"MIME-Version", "Content-Type", "List-Unsubscribe", "List-Unsubscribe-Post", "Auto-Submitted"},
	}}
	if _, err := d.Sign([]byte("From: a@b\r\n\r\n")); err != nil {
		return nil, fmt.Errorf("mail: DKIM: %w", err)
	}
	return d, nil
}

// Sign returns msg with a DKIM-Signature header before it.
func (d *DKIM) Sign(msg []byte) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(len(msg) + 512)
	opts := d.opts
	if err := dkim.Sign(&b, bytes.NewReader(msg), &opts); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
