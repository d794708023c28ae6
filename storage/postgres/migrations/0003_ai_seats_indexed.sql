-- Every change of a game against the computer used to drop its AI seats
-- from game_players (they were taken for players who left an open
-- challenge), so the index disagreed with the records and with a copy
-- made by tessera migrate. Put back every seat of every game's record.
INSERT INTO game_players (player_id, game_id)
SELECT p ->> 'id', g.id
FROM games g, jsonb_array_elements(convert_from(g.record, 'UTF8')::jsonb -> 'players') p
ON CONFLICT DO NOTHING;
