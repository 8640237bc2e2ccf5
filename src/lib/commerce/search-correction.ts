/**
 * Typo tolerance of the search: BigCommerce's keyword search matches words as typed
 * ("matelat" finds nothing), so the shop corrects a term that found nothing to the closest words
 * of its catalogue's vocabulary ("matelas") and searches that. Pure: the vocabulary is built
 * from texts the server already reads (category, brand and product names:
 * `src/shop/loaders/search-vocabulary.ts`), the matcher is fuse.js over the vocabulary's
 * words (a few thousand, never the products), and the final choice is the fewest edits.
 *
 * - Accent- and case-insensitive: words are compared folded ("oreilé" → "oreile").
 * - A word of the vocabulary is kept as typed (identity); so are short words (< 3 letters),
 *   numbers, and words too long to be a typo of a catalogue word. A word that signs split
 *   ("matelas-mousse") is searched as its words ("matelas mousse").
 * - A correction is always a word of the vocabulary, within a few edits of the typed one
 *   (`maxEdits`), in the spelling the catalogue uses most ("mémoire", not "memoire").
 * - Bounded: at most `MAX_CORRECTED_WORDS` words of a term are looked up, each at most
 *   `MAX_WORD_LENGTH` characters; the vocabulary holds at most `VOCABULARY_LIMIT` words.
 */
import Fuse from 'fuse.js';

/** Words a vocabulary keeps at most (the most frequent first): bounded at any catalogue size. */
export const VOCABULARY_LIMIT = 5_000;
/** Shortest word corrected or learned: shorter ones ("de", "x") are not typos of anything. */
export const MIN_WORD_LENGTH = 3;
/** Longest word corrected or learned (fuse.js's bitap works on 32 characters at once). */
export const MAX_WORD_LENGTH = 32;
/** Words of one term looked at; the rest are kept as typed. */
export const MAX_CORRECTED_WORDS = 5;
/** Candidates fuse.js hands over per word, before the fewest-edits choice. */
const CANDIDATES = 24;
/** Corrections of single words remembered per corrector (typed words repeat). */
const REMEMBERED_WORDS = 1_000;

/** A word of the catalogue: its folded key, its usual spelling, how often it was met. */
export interface VocabularyWord {
  /** Lower case, without accents: what words are compared by. */
  key: string;
  /** The spelling the catalogue uses most, in lower case. */
  word: string;
  /** How often the word was met (a category or brand name counts more, see `buildVocabulary`). */
  weight: number;
}

/** A text of the catalogue and what each of its words weighs (default 1). */
export interface VocabularySource {
  text: string;
  weight?: number;
}

/** Lower case without accents (NFD, combining marks removed). */
export function foldWord(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The words of a text: runs of letters and digits (hyphens, quotes, signs split them). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A word's characters (code points: folded words have no combining marks left). */
export function charsOf(text: string): string[] {
  return Array.from(text);
}

const learnable = (key: string) =>
  key.length >= MIN_WORD_LENGTH && key.length <= MAX_WORD_LENGTH && /\p{L}/u.test(key);

/**
 * The vocabulary of these texts: each word once (by folded key), in the spelling met most,
 * weighted by how often it was met; the `limit` heaviest kept, heaviest first.
 */
export function buildVocabulary(
  sources: Iterable<VocabularySource>,
  limit = VOCABULARY_LIMIT,
): VocabularyWord[] {
  const byKey = new Map<string, { weight: number; spellings: Map<string, number> }>();
  for (const { text, weight = 1 } of sources) {
    for (const word of wordsOf(text)) {
      const key = foldWord(word);
      if (!learnable(key)) continue;
      let entry = byKey.get(key);
      if (entry === undefined) {
        entry = { weight: 0, spellings: new Map() };
        byKey.set(key, entry);
      }
      entry.weight += weight;
      entry.spellings.set(word, (entry.spellings.get(word) ?? 0) + weight);
    }
  }
  const words: VocabularyWord[] = [];
  for (const [key, { weight, spellings }] of byKey) {
    let best = key;
    let bestCount = -1;
    for (const [spelling, count] of spellings) {
      if (count > bestCount) [best, bestCount] = [spelling, count];
    }
    words.push({ key, word: best, weight });
  }
  return words
    .sort((a, b) => b.weight - a.weight || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .slice(0, Math.max(0, limit));
}

/** Edits allowed between a typed word and its correction, by the typed word's length. */
export function maxEdits(length: number): number {
  if (length < MIN_WORD_LENGTH) return 0;
  if (length <= 4) return 1;
  if (length <= 8) return 2;
  return 3;
}

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions), over code
 * points; gives up past `limit` (returns `limit + 1`).
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  const s = charsOf(a);
  const t = charsOf(b);
  if (Math.abs(s.length - t.length) > limit) return limit + 1;
  let before = new Array<number>(t.length + 1).fill(0);
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i += 1) {
    const current = new Array<number>(t.length + 1).fill(0);
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= t.length; j += 1) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) {
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      }
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[t.length] ?? 0;
}

/** Corrects search terms against one vocabulary; build it once per vocabulary and keep it. */
export interface SearchCorrector {
  /** How many words the vocabulary holds. */
  readonly size: number;
  /** The closest vocabulary word to one typed word, or null when it is known or has none. */
  correctWord(word: string): string | null;
  /**
   * The term with each unknown word replaced by its closest vocabulary word, or null when no
   * word changed (all known, or nothing close enough).
   */
  correct(term: string): string | null;
  /**
   * Catalogue words to try instead of a term that found nothing: each word of the term that
   * the vocabulary knows or can correct, in the catalogue's spelling, each once, at most
   * `limit`, never the term itself.
   */
  suggest(term: string, limit?: number): string[];
}

export function createSearchCorrector(vocabulary: readonly VocabularyWord[]): SearchCorrector {
  const byKey = new Map(vocabulary.map((entry) => [entry.key, entry]));
  const entries = [...byKey.values()];
  // One fuse.js matcher per word length: a typed word is only compared with the words a few
  // edits away in length (a fraction of the vocabulary), never with every word.
  const byLength = new Map<number, VocabularyWord[]>();
  for (const entry of entries) {
    const length = charsOf(entry.key).length;
    const list = byLength.get(length) ?? [];
    list.push(entry);
    byLength.set(length, list);
  }
  const matchers = new Map<number, { words: VocabularyWord[]; fuse: Fuse<string> }>();
  for (const [length, words] of byLength) {
    // Folded keys only: fuse.js compares what it is given, accents and case already gone.
    const fuse = new Fuse(
      words.map((entry) => entry.key),
      {
        includeScore: true,
        isCaseSensitive: true,
        ignoreLocation: true,
        threshold: 0.5,
        minMatchCharLength: 2,
        shouldSort: true,
      },
    );
    matchers.set(length, { words, fuse });
  }
  const remembered = new Map<string, string | null>();

  const lookUp = (key: string): string | null => {
    const length = charsOf(key).length;
    const allowed = maxEdits(length);
    let best: { entry: VocabularyWord; edits: number } | null = null;
    for (let size = length - allowed; size <= length + allowed; size += 1) {
      const matcher = matchers.get(size);
      if (matcher === undefined) continue;
      for (const { refIndex } of matcher.fuse.search(key, { limit: CANDIDATES })) {
        const entry = matcher.words[refIndex];
        if (entry === undefined) continue;
        const edits = editDistance(key, entry.key, allowed);
        if (edits > allowed) continue;
        if (
          best === null ||
          edits < best.edits ||
          (edits === best.edits && entry.weight > best.entry.weight)
        ) {
          best = { entry, edits };
        }
      }
    }
    return best?.entry.word ?? null;
  };

  const correctWord = (typed: string): string | null => {
    const key = foldWord(typed);
    if (byKey.has(key) || !learnable(key)) return null;
    const known = remembered.get(key);
    if (known !== undefined) return known;
    const found = lookUp(key);
    if (remembered.size >= REMEMBERED_WORDS) remembered.clear();
    remembered.set(key, found);
    return found;
  };

  return {
    size: entries.length,
    correctWord,
    correct(term: string): string | null {
      const words = term.trim().split(/\s+/u).filter(Boolean);
      const corrected: string[] = [];
      let changed = 0;
      // Words looked up in the vocabulary, across the term: the rest are kept as typed.
      let lookUps = 0;
      for (const word of words) {
        // Only letters and digits are matched: a word with signs around it ("«matelat»") is
        // corrected to its one run; one the signs split ("matelas-mousse", "l'oreilé") to its
        // runs, each corrected ("matelas mousse", "l oreiller"), as the keyword search needs
        // every word of the term in a product.
        const runs = wordsOf(word);
        const fixed = runs.map((run) => {
          if (lookUps >= MAX_CORRECTED_WORDS) return run;
          lookUps += 1;
          return correctWord(run) ?? run;
        });
        if (runs.length > 1 || (runs.length === 1 && fixed[0] !== runs[0])) {
          changed += 1;
          corrected.push(fixed.join(' '));
        } else {
          corrected.push(word);
        }
      }
      return changed > 0 ? corrected.join(' ') : null;
    },
    suggest(term: string, limit = 3): string[] {
      const whole = foldWord(term.trim());
      const found: string[] = [];
      for (const run of wordsOf(term).slice(0, MAX_CORRECTED_WORDS)) {
        const known = byKey.get(foldWord(run))?.word ?? correctWord(run);
        if (known === null || foldWord(known) === whole || found.includes(known)) continue;
        found.push(known);
      }
      return found.slice(0, Math.max(0, limit));
    },
  };
}
