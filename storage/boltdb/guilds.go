package boltdb

// Servers' settings and the database's secrets: two buckets of their
// own, made when a file is opened for writing (a file from before them
// gets them then; a read-only open may lack them, which reads as empty).

import (
	"context"
	"encoding/json"
	"errors"

	bolt "go.etcd.io/bbolt"

	"tessera"
)

var (
	bGuilds  = []byte("guilds")  // guild id -> settings (JSON)
	bSecrets = []byte("secrets") // name -> the secret's bytes
)

// initGuilds makes the buckets of servers' settings and secrets.
func initGuilds(tx *bolt.Tx) error {
	for _, b := range [][]byte{bGuilds, bSecrets} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

func getGuild(tx *bolt.Tx, id string) (tessera.GuildSettings, error) {
	var g tessera.GuildSettings
	b := tx.Bucket(bGuilds)
	if b == nil {
		return g, nil
	}
	v := b.Get([]byte(id))
	if v == nil {
		return g, nil
	}
	err := json.Unmarshal(v, &g)
	return g, err
}

// Guild reads a server's settings (defaults when none are stored).
func (s *Store) Guild(ctx context.Context, id string) (tessera.GuildSettings, error) {
	var g tessera.GuildSettings
	err := s.view(ctx, func(tx *bolt.Tx) (err error) {
		g, err = getGuild(tx, id)
		return err
	})
	return g, err
}

// UpdateGuild changes a server's settings in one transaction.
func (s *Store) UpdateGuild(ctx context.Context, id string, change func(g *tessera.GuildSettings) error) (tessera.GuildSettings, error) {
	var out tessera.GuildSettings
	err := s.update(ctx, func(tx *bolt.Tx) error {
		g, err := getGuild(tx, id)
		if err != nil {
			return err
		}
		if err := change(&g); err != nil {
			return err
		}
		v, err := json.Marshal(g)
		if err != nil {
			return err
		}
		out = g
		return tx.Bucket(bGuilds).Put([]byte(id), v)
	})
	return out, err
}

// Secret reads the secret name, or stores make's in the same
// transaction (bbolt has one writer at a time, so racers get the same).
func (s *Store) Secret(ctx context.Context, name string, make func() ([]byte, error)) ([]byte, error) {
	var out []byte
	err := s.view(ctx, func(tx *bolt.Tx) error {
		if b := tx.Bucket(bSecrets); b != nil {
			out = append([]byte(nil), b.Get([]byte(name))...)
		}
		return nil
	})
	if err != nil || len(out) > 0 {
		return out, err
	}
	err = s.update(ctx, func(tx *bolt.Tx) error {
		b := tx.Bucket(bSecrets)
		if v := b.Get([]byte(name)); v != nil {
			out = append([]byte(nil), v...)
			return nil
		}
		v, err := make()
		if err != nil {
			return err
		}
		if len(v) == 0 {
			return errors.New("storage: an empty secret")
		}
		out = v
		return b.Put([]byte(name), v)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
