-- Servers' own settings (tessera.GuildSettings as JSON: /settings web:off)
-- and the database's secrets by name (the key that signs the game pages'
-- addresses and players' links), made once by whichever process needs
-- one first, so every process on the database signs alike.
CREATE TABLE guilds (
    id       text COLLATE "C" PRIMARY KEY,
    settings bytea NOT NULL
);

CREATE TABLE secrets (
    name  text COLLATE "C" PRIMARY KEY,
    value bytea NOT NULL CHECK (length(value) > 0)
);
