/**
 * Every rule the web client applies before the server does, defined once: limits, accepted formats, the comparisons
 * themselves, the words (the messages in docs/accounts.md#passwords) and the hints built from them. The server's inputs, services and entities
 * import the same values, and the web imports this file as `@mixcrate/api/rules` (plain values, no zod), so the two
 * sides cannot give different answers. The zod schemas built from these rules are in validation.ts.
 */

/** "a, b or c": how a hint lists choices (always two or more here). */
const listed = (items: readonly string[]): string => `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

// ---- Files -----------------------------------------------------------------------------------------------------

/**
 * The one size comparison both sides make. says (docs/rules.md) "at most": a file of exactly `maxBytes` is accepted, one byte
 * more is too large.
 */
export const isWithinSize = (bytes: number, maxBytes: number): boolean => bytes <= maxBytes;

/** 314,572,800 bytes as '300MB', 2,000,000 as '2MB': the size in the documented messages (binary megabytes, rounded). */
const megabytes = (bytes: number): string => `${Math.round(bytes / 1_048_576)}MB`;
const tooLarge = (maxBytes: number): string => `File too large (max. ${megabytes(maxBytes)})`;

const MP3_MAX_BYTES = 314_572_800;

/** An MP3 of type audio/mpeg, at most 300 MB (docs/upload.md#file-rules). The server also checks its content. */
export const MP3_RULE = {
  type: 'audio/mpeg',
  maxBytes: MP3_MAX_BYTES,
  /** What the file picker offers. */
  accept: 'audio/mpeg,.mp3',
  wrongFormat: 'Wrong format! Try MP3',
  tooLarge: tooLarge(MP3_MAX_BYTES),
  /** What the upload form says before an MP3 is chosen. */
  hint: `No MP3 chosen (max. ${megabytes(MP3_MAX_BYTES)})`,
} as const;

/** The browser's first check of a chosen MP3, by its type and size: the problem's words, or null. */
export function mp3Problem(file: { type: string; size: number }): string | null {
  if (file.type !== MP3_RULE.type) return MP3_RULE.wrongFormat;
  if (!isWithinSize(file.size, MP3_RULE.maxBytes)) return MP3_RULE.tooLarge;
  return null;
}

/** The image formats we take, as the server's decoder (sharp) names them, with their file name endings. */
const IMAGE_FORMATS = {
  jpeg: { extensions: ['jpg', 'jpeg'], type: 'image/jpeg' },
  png: { extensions: ['png'], type: 'image/png' },
  gif: { extensions: ['gif'], type: 'image/gif' },
  webp: { extensions: ['webp'], type: 'image/webp' },
} as const;
type ImageFormat = keyof typeof IMAGE_FORMATS;

export interface ImageFileRule {
  /** The formats accepted, as the decoder names them: the server decides by the content, the browser by the name's ending. */
  readonly formats: readonly string[];
  readonly extensions: readonly string[];
  readonly maxBytes: number;
  /** What the file picker offers. */
  readonly accept: string;
  readonly wrongFormat: string;
  readonly tooLarge: string;
  /** An image of a right format that does not decode. */
  readonly invalid: string;
  /** What the form says under the picker: the formats and the size. */
  readonly hint: string;
}

function imageRule(formats: readonly ImageFormat[], maxBytes: number, wrongFormat: string): ImageFileRule {
  const extensions = formats.flatMap((format) => IMAGE_FORMATS[format].extensions);
  return {
    formats,
    extensions,
    maxBytes,
    accept: [...extensions.map((extension) => `.${extension}`), ...formats.map((format) => IMAGE_FORMATS[format].type)].join(','),
    wrongFormat,
    tooLarge: tooLarge(maxBytes),
    invalid: 'Invalid file',
    hint: `${listed(formats.map((format) => `.${IMAGE_FORMATS[format].extensions[0]}`))}, up to ${megabytes(maxBytes)}`,
  };
}

/** Cover image: jpg, jpeg, gif, png or webp, at most 5 MB; stored as a 400x400 JPEG (docs/upload.md#file-rules). */
export const COVER_RULE = imageRule(['jpeg', 'png', 'gif', 'webp'], 5_242_880, 'Wrong format! Use .jpg, .png, .gif, or .webp');

/** Profile image: jpg, jpeg, gif or png, at most 2,000,000 bytes; stored as a 400x400 JPEG (docs/profiles.md#profile-image). */
export const PROFILE_IMAGE_RULE = imageRule(['jpeg', 'png', 'gif'], 2_000_000, 'Wrong format! Try .jpg .png or .gif');

/** The browser's first check of a chosen image, by its name's ending and its size: the problem's words, or null. */
export function imageProblem(rule: ImageFileRule, file: { name: string; size: number }): string | null {
  // After the last dot; a name without one is all ending (and so no accepted one).
  const extension = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
  if (!rule.extensions.includes(extension)) return rule.wrongFormat;
  if (!isWithinSize(file.size, rule.maxBytes)) return rule.tooLarge;
  return null;
}

// ---- The upload form ------------------------------------------------------------------------------------------

/** What an upload needs, in the order a missing list names them (docs/rules.md#limits). */
const UPLOAD_ITEMS = { cover: 'Cover Image', title: 'Title', mp3: 'MP3 audio file', genre: 'Genre' } as const;

/** The missing items joined with ' + ' ('Cover Image + Title + MP3 audio file + Genre'), or null when none is (docs/upload.md#file-rules). */
export function missingUploadItems(present: Record<keyof typeof UPLOAD_ITEMS, boolean>): string | null {
  const missing = (Object.keys(UPLOAD_ITEMS) as (keyof typeof UPLOAD_ITEMS)[]).filter((item) => !present[item]);
  return missing.length > 0 ? missing.map((item) => UPLOAD_ITEMS[item]).join(' + ') : null;
}

/** Every tracklist row needs an artist and a title; what a row without them says (docs/upload.md#step-2-add-tracks). */
export const TRACKLIST_MISSING_FIELDS = 'Missing: Empty fields';

// ---- Text lengths ----------------------------------------------------------------------------------------------

/** A mix's title, in characters (the upload form's field and the mix table's column). */
export const MIX_TITLE_MAX = 200;
/** A tracklist entry's title, and a track's in the catalogue. */
export const TRACK_TITLE_MAX = 300;
/** One creator's name in a tracklist entry (the upload's Artist column). */
export const TRACK_CREATOR_MAX = 200;
/** . (docs/rules.md#limits) */
export const BIO_MAX = 180;
export const DISPLAY_NAME_MAX = 50;
export const EMAIL_MAX = 254;
/** The earnings report's creator filter (the ledger stores creator names up to this length). */
export const EARNINGS_CREATOR_MAX = 255;
/** What a search looks for, once trimmed (docs/search.md#calls). */
export const SEARCH_QUERY_MAX = 100;
/** A creator claim's note for the moderators (docs/creators.md). */
export const CLAIM_NOTE_MAX = 2000;
/** The reason a moderator or an operator gives for a decision (docs/moderation.md). */
export const MODERATION_REASON_MAX = 1000;
/** The member an operator names to make a moderator: their user name or e-mail. */
export const MEMBER_REFERENCE_MAX = 320;
/** A report's note for the moderators (docs/trust.md#reports). */
export const REPORT_NOTE_MAX = 2000;
/** A copyright notice's text and a counter-notice's, told to the other party word for word (docs/trust.md#notices). */
export const NOTICE_TEXT_MAX = 5000;

// ---- Trust -----------------------------------------------------------------------------------------------------

/** The most reports one member files in an hour (docs/trust.md#reports). */
export const REPORTS_PER_HOUR = 10;
/** Upheld copyright strikes within the window that block uploads, until an operator sets other numbers (docs/trust.md#repeat-infringers). */
export const STRIKE_LIMIT_DEFAULT = 3;
export const STRIKE_WINDOW_DAYS_DEFAULT = 365;
/** The bounds an operator's numbers stay within. */
export const STRIKE_LIMIT_BOUNDS = { min: 1, max: 100 } as const;
export const STRIKE_WINDOW_DAYS_BOUNDS = { min: 1, max: 3650 } as const;

// ---- Accounts --------------------------------------------------------------------------------------------------

/** Passwords: at least 8 characters with a capital letter, a digit and one of the symbols; nothing else (docs/accounts.md#passwords). */
export const PASSWORD_RULE = {
  minLength: 8,
  /** bcrypt reads 72 bytes; the cap only keeps absurd input out. */
  maxLength: 128,
  symbols: '!@#$%^&*_',
} as const;

// The symbols hold no character that is special inside a regular expression's character class (], \, - or a leading ^).
export const PASSWORD_PATTERN = new RegExp(
  `^(?=.*[A-Z])(?=.*\\d)(?=.*[${PASSWORD_RULE.symbols}])[A-Za-z\\d${PASSWORD_RULE.symbols}]{${PASSWORD_RULE.minLength},}$`,
);

/** User names: letters, digits and these symbols, 3 to 30 of them (docs/rules.md#limits). */
export const USER_NAME_RULE = { minLength: 3, maxLength: 30, symbols: ['_', '.', '-'] } as const;

// '-' is last among the symbols, where a character class reads it as itself.
export const USER_NAME_PATTERN = new RegExp(
  `^[A-Za-z0-9${USER_NAME_RULE.symbols.join('')}]{${USER_NAME_RULE.minLength},${USER_NAME_RULE.maxLength}}$`,
);

/** What the forms say under a field before anything is wrong, built from the rules above. */
export const hints = {
  password: `Min. ${PASSWORD_RULE.minLength} characters, with a capital letter, a number and one of ${PASSWORD_RULE.symbols}`,
  userName: `${USER_NAME_RULE.minLength} to ${USER_NAME_RULE.maxLength} letters, digits, ${USER_NAME_RULE.symbols.slice(0, -1).join(' ')} or ${USER_NAME_RULE.symbols.at(-1)}`,
} as const;

/** The messages in docs/rules.md#limits, the same words on both sides. */
export const messages = {
  passwordRequired: 'Please enter a password',
  passwordRule: `Passwords must be min. ${PASSWORD_RULE.minLength} chars, one capital letter, one number, and one special character`,
  confirmRequired: 'Please confirm your password',
  passwordsDiffer: 'Passwords do not match',
  email: 'Please enter a valid email',
  userNameRule: `Usernames are ${hints.userName}`,
  bioTooLong: `Bio must be at most ${BIO_MAX} characters`,
  displayNameTooLong: `Display name must be at most ${DISPLAY_NAME_MAX} characters`,
} as const;

// ---- Location --------------------------------------------------------------------------------------------------

function coordinate(name: string, limit: number) {
  return { limit, notANumber: `${name} must be a number`, outOfRange: `${name} must be between -${limit} and ${limit}` } as const;
}

export type CoordinateRule = ReturnType<typeof coordinate>;

/** A member's or a feed's point: degrees within these bounds (either bound included). */
/**
 * Location privacy (issue 26), as the privacy page states it: others see the centre of a grid cell about this many km
 * across (the grid is drawn in Migration20261204000000_location_cells), and a member changes their place at most this
 * many times an hour.
 */
export const LOCATION_CELL_KM = 2;
export const LOCATION_CHANGES_PER_HOUR = 5;

/**
 * Creator claims (issue 28) each put work in front of a moderator: a member files at most this many a day
 * (docs/creators.md#claims), enough to claim an artist name, its aliases and a label.
 */
export const CREATOR_CLAIMS_PER_DAY = 5;

export const LOCATION_RULE = { latitude: coordinate('latitude', 90), longitude: coordinate('longitude', 180) } as const;

// ---- BETA codes ------------------------------------------------------------------------------------------------

/** The code that publishes a mix for free, unless BETA_CODES names others, and how it is compared (docs/payments.md#beta-codes). */
export const BETA_CODE = {
  default: 'free-mix',
  maxLength: 64,
  /** What a refused code's message starts with; the web shows its own help below it. */
  invalidTitle: 'Invalid code:',
} as const;

/** A code is compared trimmed and lower-cased, typed and configured alike (docs/payments.md#beta-codes). */
export const normaliseBetaCode = (code: string): string => code.trim().toLowerCase();
