-- Games' analyses (/analyze): one row per game holding its record
-- exactly as the bbolt adapter stores it (tessera.Analysis as JSON), plus
-- the column the queue's read needs, derived from the record by the
-- adapter in the same statement: while it is queued, the time it was
-- asked in unix nanoseconds (AnalysisQueue), else NULL.
CREATE TABLE analyses (
    game_id bigint PRIMARY KEY,
    queued  bigint,                     -- queued: requested, unix nanos; else NULL
    record  bytea NOT NULL              -- tessera.Analysis as JSON
);
CREATE INDEX analyses_queue ON analyses (queued, game_id) WHERE queued IS NOT NULL;
