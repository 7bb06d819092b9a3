// The server's error reasons (English text in `{"error": ...}` and `error` frames) in the
// interface language: each known reason is matched by a pattern and shown through an i18n key
// (`srv.*`); an unknown one is shown as the server wrote it, after a translated prefix.
import { t } from './i18n.js';
import { ROLES } from './roles.js';

const ROLE = '([a-z_ ]+?)';
const SQ = '([a-z]\\d+)';

// [pattern, i18n key, names of the captured groups]
const PATTERNS = [
  // Accounts and sessions
  [/^wrong name or password$/, 'srv.wrongPassword'],
  [/^the name (.+) is taken$/, 'srv.nameTaken', ['name']],
  [/^the name (.+) is taken: it is the same name as (.+)$/, 'srv.nameLookAlike', ['name', 'other']],
  [/^the name (.+) is the registered player (.+)'s name; choose another or log in$/, 'srv.nameRegistered', ['name', 'owner']],
  [/^a name has 2 to 24 characters \(this one has (\d+)\)$/, 'srv.badName', ['n']],
  [/^a name has no spaces$/, 'srv.nameSpace'],
  [/^the name contains the (?:control|invisible formatting|private-use) character (U\+[0-9A-F]+|'.+' \(U\+[0-9A-F]+\))/, 'srv.nameHidden', ['ch']],
  [/^the name contains the unassigned code point (U\+[0-9A-F]+)$/, 'srv.nameHidden', ['ch']],
  [/^the name (?:has more than one combining mark on one letter|has the combining mark .+ where no letter is before it)/, 'srv.nameMarks'],
  [/^the name contains (.+?)(?:: a name has letters, digits, '_' and '-' only|, which is not allowed in names .*)$/, 'srv.nameChar', ['ch']],
  [/^the name mixes the scripts (.+), whose letters look alike; write it in one script$/, 'srv.nameScripts', ['scripts']],
  [/^the name "(.+)" is reserved /, 'srv.nameReserved', ['name']],
  [/^too many failed logins for this name; try again in (\d+) seconds$/, 'srv.tooManyName', ['s']],
  [/^too many failed logins from your network address; try again in (\d+) seconds$/, 'srv.tooManyAddress', ['s']],
  [/^too many registrations from your network address; try again in (\d+) seconds$/, 'srv.tooManyRegister', ['s']],
  [/^the server is busy checking other passwords/, 'srv.busy'],
  [/^a password has 8 to 256 characters$/, 'srv.badPassword'],
  [/^no valid session$/, 'srv.noSession'],
  [/^no such player$/, 'srv.noPlayer'],
  // Tables and games (HTTP)
  [/^no such table$/, 'srv.noTable'],
  [/^no table has this code$/, 'srv.noCode'],
  [/^no such game$/, 'srv.noGame'],
  [/^the record is published once the game is over$/, 'srv.recordLater'],
  [/^request too large$/, 'srv.tooLarge'],
  [/^mode (\w+) does not exist on the (\w+) board$/, 'srv.noMode', ['mode', 'board']],
  [/^(\w+) must be a number of seconds from 0 to 3600$/, 'srv.badSeconds', ['field']],
  [/^seat must be a seat number from 0 to (\d+)$/, 'srv.badSeatNumber', ['max']],
  [/^could not create the table/, 'srv.createFailed'],
  // Table frames
  [/^rate limited$/, 'srv.rateLimited'],
  [/^the server cannot be reached$/, 'srv.network'],
  [/^send hello first$/, 'srv.helloFirst'],
  [/^every seat must be taken \(by a person or a bot\) to start$/, 'srv.seatsEmpty'],
  [/^the game has not started$/, 'srv.notStarted'],
  [/^the game has already started$/, 'srv.alreadyStarted'],
  [/^the server could not store this; try again$/, 'srv.storeFailed'],
  [/^only the host may do that$/, 'srv.hostOnly'],
  [/^you are watching: you have no seat at this table$/, 'srv.watching'],
  [/^you have no seat at this table$/, 'srv.noSeat'],
  [/^seat (\d+) does not exist( at this table)?$/, 'srv.seatMissing', ['seat']],
  [/^you already have a seat$/, 'srv.haveSeat'],
  [/^seat (\d+) is taken$/, 'srv.seatTaken', ['seat']],
  [/^seat (\d+) has no bot$/, 'srv.noBot', ['seat']],
  [/^it is seat (\d+)'s turn, not (yours|seat \d+'s)$/, 'srv.notYourTurn', ['seat']],
  [/^resignation is refused in the first (\d+) seconds of play$/, 'srv.resignTooEarly', ['s']],
  [/^you are (already )?out of the game$/, 'srv.youAreOut'],
  [/^the game is over/, 'srv.gameOver'],
  [/^you cannot leave during deployment/, 'srv.noLeaveDeploying'],
  [/^deployment is not open/, 'srv.deployClosed'],
  [/^a draw offer is already open$/, 'srv.drawOpen'],
  [/^there is no draw offer$/, 'srv.noDrawOffer'],
  // Layouts (the core's reasons)
  [new RegExp(`^${SQ} is a camp and must start empty, but holds a ${ROLE}$`), 'deploy.err.camp', ['sq', 'role']],
  [new RegExp(`^${SQ} is empty: all 25 non-camp squares need a piece$`), 'deploy.err.empty', ['sq']],
  [new RegExp(`^the flag on ${SQ} must stand in a headquarters \\(${SQ} or ${SQ}\\)$`), 'deploy.err.flag', ['sq', 'hq1', 'hq2']],
  [new RegExp(`^the landmine on ${SQ} must stand in the last two rows$`), 'deploy.err.landmine', ['sq']],
  [new RegExp(`^the bomb on ${SQ} may not stand in the front row$`), 'deploy.err.bomb', ['sq']],
  [new RegExp(`^a deployment needs (\\d+) ${ROLE} \\(.*\\), this one has (\\d+)$`), 'deploy.err.count', ['want', 'role', 'have']],
  [/^a deployment has 6 rows separated by '\/', got (\d+)$/, 'deploy.err.rows', ['n']],
  // Actions (the referee's reasons)
  [new RegExp(`^there is no piece on ${SQ}( to flip)?$`), 'srv.noPiece', ['sq']],
  [new RegExp(`^the piece on ${SQ} is already face up$`), 'srv.faceUp', ['sq']],
  [new RegExp(`^the piece on ${SQ} is face down$`), 'srv.faceDown', ['sq']],
  [new RegExp(`^the piece on ${SQ} is not seat \\d+'s$`), 'srv.notYourPiece', ['sq']],
  [new RegExp(`^the ${ROLE} on ${SQ} never moves$`), 'srv.neverMoves', ['role', 'sq']],
  [new RegExp(`^the piece on ${SQ} stands in a headquarters and may not leave it$`), 'srv.hqLocked', ['sq']],
  [new RegExp(`^the ${ROLE} on ${SQ} cannot move to ${SQ}$`), 'srv.cannotMove', ['role', 'from', 'to']],
  [/^colours are not settled yet: only flips are legal$/, 'srv.flipFirst'],
  [/^flips exist only in flip play$/, 'srv.noFlips'],
];

function roleId(text) {
  const id = text.trim().replace(/ /g, '_');
  return ROLES.includes(id) ? id : null;
}

/** The server's reason in the interface language (unknown reasons keep their text). */
export function serverMessage(reason) {
  const text = String(reason ?? '').trim();
  for (const [re, key, names = []] of PATTERNS) {
    const m = re.exec(text);
    if (!m) continue;
    const args = {};
    names.forEach((n, i) => { args[n] = m[i + 1]; });
    if (args.role !== undefined) {
      const id = roleId(args.role);
      if (!id) continue;
      args.role = id;
    }
    if (args.seat !== undefined) args.seat = Number(args.seat);
    // Names the interface has words for.
    for (const [k, prefix] of [['board', 'board.'], ['mode', 'mode.'], ['field', 'field.']]) {
      if (args[k] !== undefined && t(prefix + args[k]) !== prefix + args[k]) args[k] = t(prefix + args[k]);
    }
    return t(key, args);
  }
  return t('srv.other', { msg: text });
}

/** The patterns' i18n keys (for the completeness test). */
export const ERROR_KEYS = [...new Set(PATTERNS.map((p) => p[1]))];
