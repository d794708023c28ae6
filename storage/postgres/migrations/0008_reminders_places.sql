-- The reminders' index, and a place index of the games active there
-- (issue #44: every answer as fast with a million games as with a few).
--
-- remind_at is a game in play's tessera.Game.RemindAt in unix nanos (NULL
-- otherwise), derived from the record by the adapter in the same
-- statement, as deadline is: a tick reads the games due from its partial
-- index instead of every game ever stored.
--
-- open_created is an open challenge's Created in unix nanos (NULL
-- otherwise), under a partial index: the tick finds the challenges to
-- expire there instead of reading every open challenge.
--
-- game_channels held every place a game was ever in, for ever, so a
-- channel listed every game ever played there. From now on it holds a
-- game's channel while it is a challenge or in play, and its own thread
-- (when apart from its channel) whatever its state (storage.Places):
-- the adapter deletes a game's channel row in the transaction that ends
-- it. The rows that rule no longer keeps are deleted here.
--
-- The migration is one transaction (migrate.go): a process killed in the
-- middle leaves schema 7 as it was, and the next start applies it again.

ALTER TABLE games ADD COLUMN remind_at bigint;
ALTER TABLE games ADD COLUMN open_created bigint;

-- What the rules need of every game, read once from its record.
CREATE TEMPORARY TABLE upgrade_8 ON COMMIT DROP AS
SELECT g.id,
       coalesce(j ->> 'status', '') AS status,
       coalesce(j ->> 'channel_id', '') AS channel,
       coalesce(j ->> 'thread_id', '') AS thread,
       j ? 'remind_at' AS has_remind,
       coalesce((j ->> 'open')::boolean, false) AS open,
       j ->> 'created' AS created,
       -- storage.UpgradeRemindAt, to the second (early is harmless)
       date_trunc('second', greatest((j ->> 'turn_start')::timestamptz, '1970-01-01T00:00:00Z'::timestamptz)) AS remind
FROM games g, LATERAL (SELECT convert_from(g.record, 'UTF8')::jsonb AS j) r;

-- A game in play gets RemindAt = the start of its turn, in its record and
-- its column: the first tick looks at it once and sets the time its
-- reminder is really due (only the service knows it). The field is put
-- first in the record's text, the rest left byte for byte.
UPDATE games g
SET record = convert_to('{"remind_at":' || to_json(to_char(u.remind AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))::text || ','
                        || substr(convert_from(g.record, 'UTF8'), 2), 'UTF8'),
    remind_at = extract(epoch FROM u.remind)::bigint * 1000000000
FROM upgrade_8 u
WHERE g.id = u.id AND u.status = 'playing' AND NOT u.has_remind
  AND substr(convert_from(g.record, 'UTF8'), 1, 1) = '{';

CREATE INDEX games_remind ON games (remind_at, id) WHERE remind_at IS NOT NULL;

-- Created to the nanosecond, as the adapter writes it (storage.OpenNanos):
-- whole seconds from the timestamp, the fraction from the text.
UPDATE games g
SET open_created = greatest(0, extract(epoch FROM date_trunc('second', u.created::timestamptz))::bigint * 1000000000
                               + coalesce(rpad(substring(u.created FROM '\.([0-9]{1,9})'), 9, '0')::bigint, 0))
FROM upgrade_8 u
WHERE g.id = u.id AND u.open AND u.status = 'challenge' AND u.created IS NOT NULL;

CREATE INDEX games_open_created ON games (open_created, id) WHERE open_created IS NOT NULL;

DELETE FROM game_channels c
USING upgrade_8 u
WHERE c.game_id = u.id
  AND NOT (c.channel_id = u.channel AND u.channel <> '' AND u.status IN ('challenge', 'playing'))
  AND NOT (c.channel_id = u.thread AND u.thread <> '' AND u.thread <> u.channel);

DELETE FROM game_channels c WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = c.game_id);

INSERT INTO game_channels (channel_id, game_id)
SELECT channel, id FROM upgrade_8 WHERE channel <> '' AND status IN ('challenge', 'playing')
UNION ALL
SELECT thread, id FROM upgrade_8 WHERE thread <> '' AND thread <> channel
ON CONFLICT DO NOTHING;
