-- The first schema. Each game is one row holding its record exactly as the
-- bbolt adapter stores it (tessera.Game as JSON), plus the columns that the
-- indexed reads need, derived from the record by the adapter in the same
-- statement as the record itself. Times that are compared or ordered are
-- unix nanoseconds (bigint), as bbolt's keys are, so both adapters order
-- ties alike. Text keys use the "C" collation: byte order, as bbolt's keys.

-- Counters that must not skip a value when a transaction rolls back (a
-- sequence would): the next game id.
CREATE TABLE counters (
    name  text PRIMARY KEY,
    value bigint NOT NULL
);
INSERT INTO counters (name, value) VALUES ('games', 0);

CREATE TABLE games (
    id          bigint PRIMARY KEY,
    version     bigint NOT NULL,
    open_guild  text COLLATE "C",         -- the guild of an open challenge, else NULL
    ai_turn     boolean NOT NULL,         -- in play and an AI seat is to move
    deadline    bigint,                   -- in play with a deadline: unix nanos
    record      bytea NOT NULL            -- tessera.Game as JSON
);
CREATE INDEX games_open ON games (open_guild, id) WHERE open_guild IS NOT NULL;
CREATE INDEX games_ai_turn ON games (id) WHERE ai_turn;
CREATE INDEX games_deadline ON games (deadline, id) WHERE deadline IS NOT NULL;

-- A game's players (a player who leaves an open challenge is removed).
CREATE TABLE game_players (
    player_id text COLLATE "C" NOT NULL,
    game_id   bigint NOT NULL,
    PRIMARY KEY (player_id, game_id)
);

-- Every channel and thread a game was ever placed in (as bbolt's index:
-- a relocated game is still found from its old place).
CREATE TABLE game_channels (
    channel_id text COLLATE "C" NOT NULL,
    game_id    bigint NOT NULL,
    PRIMARY KEY (channel_id, game_id)
);

-- Finished games by player, newest first: ended is storage.Ended.
CREATE TABLE finished (
    player_id text COLLATE "C" NOT NULL,
    ended     bigint NOT NULL,
    game_id   bigint NOT NULL,
    PRIMARY KEY (player_id, ended, game_id)
);

-- Interaction ids already handled, with when (unix seconds), for pruning.
CREATE TABLE handled (
    interaction_id text COLLATE "C" PRIMARY KEY,
    at             bigint NOT NULL
);
CREATE INDEX handled_at ON handled (at);

-- Announcements owed to Discord. body is tessera.Announcement as JSON
-- (its seq is the row's); next_at mirrors body's Next (NULL when zero).
CREATE TABLE outbox (
    seq     bigserial PRIMARY KEY,
    game_id bigint NOT NULL,
    next_at bigint,
    body    bytea NOT NULL
);
CREATE INDEX outbox_game ON outbox (game_id, seq);

-- Couriers' leases on games' announcements. A row is made by the first
-- announcement of a game and never deleted, so a claimer always has a row
-- to lock (FOR UPDATE SKIP LOCKED) and a release never races an enqueue.
CREATE TABLE outbox_leases (
    game_id     bigint PRIMARY KEY,
    owner       text NOT NULL DEFAULT '',
    lease_until bigint NOT NULL DEFAULT 0   -- unix nanos
);

-- User settings: tessera.UserSettings as JSON (NULL: the defaults).
CREATE TABLE users (
    id       text COLLATE "C" PRIMARY KEY,
    settings bytea
);

-- Ratings: tessera.Rating as JSON, one per server, game and player.
CREATE TABLE ratings (
    guild_id text COLLATE "C" NOT NULL,
    game     text COLLATE "C" NOT NULL,
    user_id  text COLLATE "C" NOT NULL,
    rating   bytea NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
