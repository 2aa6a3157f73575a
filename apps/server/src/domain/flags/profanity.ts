import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';

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

  /** Whether any word of the text is profane. */
  hasProfanity(text: string): boolean {
    for (const token of text.toLowerCase().split(/\s+/)) if (token && this.token(token)) return true;
    return false;
  }

  /** The profane words of the text, as written (for the moderator's view and tests). */
  profaneWords(text: string): string[] {
    return text.split(/\s+/).filter((token) => token && this.token(token.toLowerCase()));
  }
}
