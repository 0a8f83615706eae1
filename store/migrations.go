package store

// migrations is the schema history, oldest first: migrations[i] takes the database from
// version i to version i+1. Append only — never edit a step that has shipped, because
// databases in the field already ran it.
//
// Times are Unix milliseconds (UTC) in INTEGER columns: they sort and compare as numbers
// and avoid the driver's text time formats.
var migrations = []string{
	// 1: players and finished games.
	`
CREATE TABLE players (
	id         TEXT PRIMARY KEY,
	name       TEXT NOT NULL,
	first_seen INTEGER NOT NULL,
	last_seen  INTEGER NOT NULL
) STRICT;

CREATE TABLE games (
	id          INTEGER PRIMARY KEY,
	game        TEXT NOT NULL,
	table_code  TEXT NOT NULL,
	finished_at INTEGER NOT NULL
) STRICT;

-- player_id is '' for bots and guests, and is no foreign key: a game is recorded even if
-- a player was never saved.
CREATE TABLE game_seats (
	game_id   INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
	seat      INTEGER NOT NULL,
	player_id TEXT NOT NULL,
	name      TEXT NOT NULL,
	score     INTEGER NOT NULL,
	winner    INTEGER NOT NULL,
	PRIMARY KEY (game_id, seat)
) STRICT;

CREATE INDEX game_seats_by_player ON game_seats(player_id, game_id);
CREATE INDEX games_by_finish ON games(finished_at);
`, // 2: the log of every open table, and when the server was last known to run.
	`
CREATE TABLE table_log (
	table_code TEXT NOT NULL,
	seq        INTEGER NOT NULL,
	kind       INTEGER NOT NULL,
	at         INTEGER NOT NULL,
	data       BLOB NOT NULL,
	PRIMARY KEY (table_code, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE server_state (
	key   TEXT PRIMARY KEY,
	value INTEGER NOT NULL
) STRICT;
`, // 3: content packs players upload, by owner and name.
	`
CREATE TABLE packs (
	owner     TEXT NOT NULL,
	name      TEXT NOT NULL,
	kind      TEXT NOT NULL,
	content   BLOB NOT NULL,
	entries   INTEGER NOT NULL,
	published INTEGER NOT NULL,
	created   INTEGER NOT NULL,
	PRIMARY KEY (owner, name)
) STRICT;

CREATE INDEX packs_published ON packs(published, name);
`, // 4: moderation: bans, server-wide mutes, reports and the audit log.
	`
CREATE TABLE bans (
	id     INTEGER PRIMARY KEY AUTOINCREMENT,
	kind   TEXT NOT NULL,
	target TEXT NOT NULL,
	reason TEXT NOT NULL,
	by     TEXT NOT NULL,
	at     INTEGER NOT NULL,
	until  INTEGER NOT NULL
) STRICT;

CREATE TABLE mutes (
	player TEXT PRIMARY KEY,
	reason TEXT NOT NULL,
	by     TEXT NOT NULL,
	at     INTEGER NOT NULL,
	until  INTEGER NOT NULL
) STRICT;

CREATE TABLE reports (
	id         INTEGER PRIMARY KEY AUTOINCREMENT,
	table_code TEXT NOT NULL,
	by_id      TEXT NOT NULL,
	by_name    TEXT NOT NULL,
	about_id   TEXT NOT NULL,
	about_name TEXT NOT NULL,
	reason     TEXT NOT NULL,
	chat       TEXT NOT NULL,
	at         INTEGER NOT NULL
) STRICT;

CREATE TABLE audit (
	id     INTEGER PRIMARY KEY AUTOINCREMENT,
	at     INTEGER NOT NULL,
	by     TEXT NOT NULL,
	action TEXT NOT NULL,
	target TEXT NOT NULL,
	reason TEXT NOT NULL
) STRICT;
`,
	// 5: browsers linked to a player's key (the browser door).
	`
CREATE TABLE browsers (
	id         TEXT PRIMARY KEY,
	player     TEXT NOT NULL,
	player_key BLOB NOT NULL,
	public_key BLOB NOT NULL,
	label      TEXT NOT NULL,
	added      INTEGER NOT NULL
) STRICT;

CREATE INDEX browsers_player ON browsers(player, added);

CREATE TABLE link_codes (
	code       TEXT PRIMARY KEY,
	player     TEXT NOT NULL,
	player_key BLOB NOT NULL,
	expires    INTEGER NOT NULL
) STRICT;
`,
	// 6: the linear mode a player chose (SetLinear), kept across logins.
	`
ALTER TABLE players ADD COLUMN linear INTEGER NOT NULL DEFAULT 0;
`,
	// 7: whom each player ignores (their chat does not reach them), by key.
	`
CREATE TABLE ignores (
	by    TEXT NOT NULL,
	about TEXT NOT NULL,
	name  TEXT NOT NULL,
	PRIMARY KEY (by, about)
) STRICT;
`,
	// 8: the call that filed a report, so a call sent again files it once ('' for none).
	`
ALTER TABLE reports ADD COLUMN call TEXT NOT NULL DEFAULT '';
CREATE UNIQUE INDEX reports_by_call ON reports(call) WHERE call != '';
`,
}
