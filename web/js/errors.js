// The server's refusals in the interface language. Every HTTP error body
// (`{"error", "code", "args"}`) and every `error` frame (`{"reason", "code", "args"}`) carries a
// stable code (docs/server-protocol.md and docs/formats.md, "Error codes"); the client shows it
// through the i18n key `err.<code>`, filled from `args` (roles by their names, seats by the
// board's seat names when the board is known (t() shows a {role} by its name), boards, modes and fields in words). A code without
// words here is shown as the server's English text after a translated prefix; so is an error
// without a code (only the client's own, such as an unreachable server).
import { t, seatName, STRINGS } from './i18n.js';
import { SEATS } from './board.js';

/** The errors the client makes itself (no code): their text and key. */
const CLIENT_ERRORS = {
  'the server cannot be reached': 'srv.network',
};

/** Args that are seat numbers. */
const SEAT_ARGS = ['seat', 'to_move', 'flag_of'];
/** Chat and rematch refusals (chat.too_long, chat.rate_limited, chat.off, chat.unknown_phrase,
 * chat.empty, rematch.not_over, rematch.done, rematch.left) are words in i18n.js under err.*;
 * a quick phrase named in args.phrase is shown in words too. */
const PHRASE_ARGS = ['phrase'];
/** Codes whose seat is not a seat of the board (a seat that does not exist). */
const NO_SUCH_SEAT = /\.no_such(_first|_eliminated)?_seat$/;
/** Codes whose `char` is invisible: shown by its code point only. */
const INVISIBLE = new Set(['name.control', 'name.format']);

function has(key) {
  return key in STRINGS.zh;
}

/** Words for a name the interface knows (`board.two_player` …), else the name itself. */
function word(prefix, v) {
  return has(prefix + v) ? t(prefix + v) : String(v);
}

/**
 * A refusal as {code, args, text}, from an HTTP body, an `error` frame, an ApiError, an
 * {code, args, message} object or a plain text (no code).
 */
export function refusalOf(x) {
  if (x === null || x === undefined) return { code: null, args: {}, text: '' };
  if (typeof x !== 'object') return { code: null, args: {}, text: String(x) };
  const text = x.reason ?? x.error ?? x.message ?? '';
  const args = x.args && typeof x.args === 'object' && !Array.isArray(x.args) ? x.args : {};
  return { code: typeof x.code === 'string' && x.code ? x.code : null, args, text: String(text) };
}

/** The i18n key of a refusal (some codes have a variant by their args). */
export function keyOf(code, args = {}) {
  if (code === 'account.throttled' && has(`err.${code}.${args.what}`)) return `err.${code}.${args.what}`;
  if (code === 'account.name_taken' && args.name !== undefined && args.name !== args.owner) return 'err.account.name_taken.look_alike';
  // Why a move is blocked (docs/formats.md): said after the move when the words know it.
  if (code === 'action.cannot_move' && has(`why.${args.why}`)) return `err.${code}.why`;
  return `err.${code}`;
}

/** The args as the words fill them in. `ctx.board` names seats by the board's seat names. */
function words(code, args, ctx) {
  const out = {};
  const sep = t('err.sep');
  for (const [k, v] of Object.entries(args)) {
    if (Array.isArray(v)) {
      if (k === 'hqs') out[k] = v.join(t('err.or'));
      else if (k === 'scripts') out[k] = v.map((s) => word('script.', s)).join(sep);
      else if (k === 'bots') out[k] = v.map((b) => word('bot.', b)).join(sep);
      else if (k === 'phrases') out[k] = v.map((p) => word('chat.phrase.', p)).join(sep);
      else out[k] = v.join(', ');
    } else if (v && typeof v === 'object') {
      continue; // an outcome: the words do not show it
    } else if (SEAT_ARGS.includes(k) && typeof v === 'number') {
      const seats = SEATS[ctx.board] || 0;
      out[k] = v >= 0 && v < seats && !NO_SUCH_SEAT.test(code) ? seatName(ctx.board, v) : t('err.seat', { n: v });
    } else if (k === 'board') out[k] = word('board.', v);
    else if (k === 'mode') out[k] = word('mode.', v);
    else if (k === 'field') out[k] = word('field.', v);
    else if (k === 'why') out[k] = has(`why.${v}`) ? t(`why.${v}`, { at: args.at ?? '' }) : String(v);
    else if (PHRASE_ARGS.includes(k)) out[k] = word('chat.phrase.', v);
    else out[k] = v;
  }
  if (typeof args.code_point === 'string') {
    out.ch = INVISIBLE.has(code) || args.char === undefined ? args.code_point : `'${args.char}' (${args.code_point})`;
  }
  return out;
}

/**
 * A refusal in the interface language: `x` is an HTTP error body, an `error` frame, an ApiError
 * or a text; `ctx.board` (optional) is the board, for seat names.
 */
export function serverMessage(x, ctx = {}) {
  const { code, args, text } = refusalOf(x);
  if (code) {
    const key = keyOf(code, args);
    if (has(key)) return t(key, words(code, args, ctx));
    return t('srv.other', { msg: text || code });
  }
  const own = CLIENT_ERRORS[text.trim()];
  return own ? t(own) : t('srv.other', { msg: text });
}

/** The squares a refusal names (`square`, `from`, `to`), to outline on the board. */
export function refusalSquares(x) {
  const { args } = refusalOf(x);
  return ['square', 'from', 'to'].map((k) => args[k]).filter((s) => typeof s === 'string' && s);
}
