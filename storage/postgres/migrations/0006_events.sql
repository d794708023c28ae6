-- Tournaments: each event is one row holding its record exactly as the
-- bbolt adapter stores it (tessera.Event as JSON), plus the columns the
-- indexed reads need, derived from the record by the adapter in the same
-- statement: its server (GuildEvents) and, while it is open with a start
-- time, that time in unix nanoseconds (EventsDue), as games' deadline.
-- Event ids come from their own counter row, which a rolled-back
-- transaction gives back, as the games' does.
INSERT INTO counters (name, value) VALUES ('events', 0);

CREATE TABLE events (
    id       bigint PRIMARY KEY,
    version  bigint NOT NULL,
    guild_id text COLLATE "C" NOT NULL,
    starts   bigint,                      -- open with a start time: unix nanos, else NULL
    record   bytea NOT NULL               -- tessera.Event as JSON
);
CREATE INDEX events_guild ON events (guild_id, id);
CREATE INDEX events_starts ON events (starts, id) WHERE starts IS NOT NULL;
