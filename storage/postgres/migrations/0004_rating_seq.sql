-- The order in which games change ratings (Tx.NextRatingSeq): a counter
-- row, taken in the transaction that ends a rated game after its players'
-- ratings are locked, so tessera ratings replays the games in the order
-- their changes were made. Its row lock is held until the commit.
INSERT INTO counters (name, value) VALUES ('ratings', 0);
