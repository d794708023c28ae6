-- Ratings read, not scanned (issue #44). A rating's history moves to a
-- table of its own, so that a leaderboard or a rank reads no history;
-- the ratings row gets the columns of the leaderboard's order
-- (storage.CompareRank), negated where the order is descending, so that
-- one ascending index serves a leaderboard (an ordered read with a limit)
-- and a place (a count of the index entries before the player's, an
-- index-only scan bounded by the place); an index by server and player
-- serves a player's ratings; and each game's count of rated players is
-- kept, so that "of N players" reads one row.
CREATE TABLE rating_history (
    guild_id text COLLATE "C" NOT NULL,
    game     text COLLATE "C" NOT NULL,
    user_id  text COLLATE "C" NOT NULL,
    history  bytea NOT NULL,            -- the rating's History: []tessera.RatingPoint as JSON
    PRIMARY KEY (guild_id, game, user_id)
);
INSERT INTO rating_history (guild_id, game, user_id, history)
    SELECT guild_id, game, user_id, convert_to(coalesce(convert_from(rating, 'UTF8')::jsonb -> 'history', 'null'::jsonb)::text, 'UTF8')
    FROM ratings;

ALTER TABLE ratings
    ADD COLUMN neg_ordinal double precision,  -- -(mu - 3 sigma), as storage.Ordinal computes it
    ADD COLUMN neg_games   integer,           -- -games
    ADD COLUMN name        bytea;             -- the name's bytes: compared as Go compares strings
UPDATE ratings r SET
    rating      = convert_to((o.j - 'history')::text, 'UTF8'),
    neg_ordinal = -((o.j ->> 'mu')::float8 - 3 * (o.j ->> 'sigma')::float8),
    neg_games   = -coalesce((o.j ->> 'games')::integer, 0),
    name        = convert_to(coalesce(o.j ->> 'name', ''), 'UTF8')
FROM (SELECT guild_id, game, user_id, convert_from(rating, 'UTF8')::jsonb AS j FROM ratings) o
WHERE r.guild_id = o.guild_id AND r.game = o.game AND r.user_id = o.user_id;
ALTER TABLE ratings
    ALTER COLUMN neg_ordinal SET NOT NULL,
    ALTER COLUMN neg_games SET NOT NULL,
    ALTER COLUMN name SET NOT NULL;
CREATE INDEX ratings_rank ON ratings (guild_id, game, neg_ordinal, neg_games, name, user_id);
CREATE INDEX ratings_by_player ON ratings (guild_id, user_id);

CREATE TABLE rating_counts (
    guild_id text COLLATE "C" NOT NULL,
    game     text COLLATE "C" NOT NULL,
    players  integer NOT NULL,          -- the rows of ratings with this guild_id and game
    PRIMARY KEY (guild_id, game)
);
INSERT INTO rating_counts (guild_id, game, players)
    SELECT guild_id, game, count(*) FROM ratings GROUP BY guild_id, game;

-- How many players' ordinals fall in each bin a quarter of a point wide
-- (bin floor(4 x ordinal)), so that a place is the sum of the bins above
-- the player's (a few hundred rows at most) plus a count among the
-- players of the player's own bin.
CREATE TABLE rating_bins (
    guild_id text COLLATE "C" NOT NULL,
    game     text COLLATE "C" NOT NULL,
    bin      bigint NOT NULL,
    players  integer NOT NULL,          -- may reach 0: a bin left by its last player
    PRIMARY KEY (guild_id, game, bin)
);
INSERT INTO rating_bins (guild_id, game, bin, players)
    SELECT guild_id, game, floor(-neg_ordinal * 4)::bigint, count(*) FROM ratings GROUP BY 1, 2, 3;
