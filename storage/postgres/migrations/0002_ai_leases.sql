-- Leases on the AI's turns, so that processes sharing the database think
-- about an AI turn once. A row lives while its lease matters; a released
-- or expired one is taken over by the next claim.
CREATE TABLE ai_leases (
    game_id     bigint PRIMARY KEY,
    owner       text NOT NULL,
    lease_until bigint NOT NULL   -- unix nanos
);
