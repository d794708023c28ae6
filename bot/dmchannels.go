package bot

import (
	"context"
	"sync"

	"github.com/bwmarrin/discordgo"
)

// dmChannels keeps each user's direct-message channel id. Discord answers
// "open a DM" (POST /users/@me/channels) with the same channel every
// time, so it is asked once per user: the id is remembered here and in
// the user's stored settings, so a restarted bot does not ask again for
// everyone it writes to. A kept channel Discord no longer knows (Unknown
// Channel) is forgotten and opened anew (see sink.DM).
type dmChannels struct {
	store dmStore
	mu    sync.Mutex
	known map[string]string // user id -> channel id
}

// dmStore is where the channels are kept (the service: Players).
type dmStore interface {
	DMChannel(ctx context.Context, userID string) (string, error)
	KeepDMChannel(ctx context.Context, userID, channelID string) error
	ForgetDMChannel(ctx context.Context, userID, channelID string) error
}

func newDMChannels(store dmStore) *dmChannels {
	return &dmChannels{store: store, known: map[string]string{}}
}

// channel returns userID's DM channel: the one kept (cached reports
// that), or one Discord opens now, which is then kept. The store is only
// a cache here: when it fails, the channel is opened all the same.
func (d *dmChannels) channel(ctx context.Context, s *discordgo.Session, userID string) (id string, cached bool, err error) {
	d.mu.Lock()
	id = d.known[userID]
	d.mu.Unlock()
	if id != "" {
		return id, true, nil
	}
	if kept, err := d.store.DMChannel(ctx, userID); err == nil && kept != "" {
		d.remember(userID, kept)
		return kept, true, nil
	}
	ch, err := s.UserChannelCreate(userID, discordgo.WithContext(ctx))
	if err != nil {
		return "", false, err
	}
	d.remember(userID, ch.ID)
	d.store.KeepDMChannel(ctx, userID, ch.ID)
	return ch.ID, false, nil
}

func (d *dmChannels) remember(userID, channelID string) {
	d.mu.Lock()
	d.known[userID] = channelID
	d.mu.Unlock()
}

// forget drops userID's kept channel when it is still channelID.
func (d *dmChannels) forget(ctx context.Context, userID, channelID string) {
	d.mu.Lock()
	if d.known[userID] == channelID {
		delete(d.known, userID)
	}
	d.mu.Unlock()
	d.store.ForgetDMChannel(ctx, userID, channelID)
}
