import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import { isSpace } from './text-scan';

/**
 * Profanity (DOMAIN.md "Flags", type 0) with obscenity's maintained English word list and its recommended
 * transformers (case, leet speak, confusable characters, repeated letters), which match on word boundaries: "shit"
 * and "sh1t" match, "Scunthorpe", "assessment" and "cocktail" do not.
 *
 * The matcher costs about a millisecond per long note, too slow for a million notes; reviews repeat their words, so
 * each whitespace-separated token is matched once and the answer cached. A token keeps its punctuation ("shit.").
 */
export class ProfanityMatcher {
  private readonly matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  private readonly cache = new Map<string, boolean>();
  private readonly cacheLimit: number;

  constructor(cacheLimit = 1_000_000) {
    this.cacheLimit = cacheLimit;
  }

  /** Whether a single token (in lower case) is profane. */
  private token(token: string): boolean {
    let hit = this.cache.get(token);
    if (hit === undefined) {
      hit = this.matcher.hasMatch(token);
      if (this.cache.size >= this.cacheLimit) this.cache.clear();
      this.cache.set(token, hit);
    }
    return hit;
  }

  /** Whether any word of the text is profane (the tokens of `split(/\s+/)`, scanned without a regular expression). */
  hasProfanity(text: string): boolean {
    const lower = text.toLowerCase();
    let start = -1;
    for (let i = 0; i <= lower.length; i += 1) {
      if (i < lower.length && !isSpace(lower.charCodeAt(i))) {
        if (start < 0) start = i;
      } else if (start >= 0) {
        if (this.token(lower.slice(start, i))) return true;
        start = -1;
      }
    }
    return false;
  }

  /** The profane words of the text, as written (for the moderator's view and tests). */
  profaneWords(text: string): string[] {
    return text.split(/\s+/).filter((token) => token && this.token(token.toLowerCase()));
  }
}
