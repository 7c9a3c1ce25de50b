/**
 * The demo model's session titles (providerOptions.demo.task = 'title'). It cannot understand or
 * translate, so it names the conversation with the words of the first message: the clause that says
 * the most, without the asking around it ("How do I…", "…해 주세요", "…ですか"), whole words only.
 */

/** Spaced scripts (English, Spanish, Korean): at most this many words and characters. */
const TITLE_WORDS = 6;
const TITLE_CHARS = 40;
/** Unspaced scripts (Chinese, Japanese): at most this many characters. */
const TITLE_CHARS_UNSPACED = 20;

/** Words that ask or greet rather than say what the conversation is about (lower case). */
const FILLER = new Set(
  (
    'a an the please pls can could would will you i me my we us our how what why when where which who whom do does did is are was were be ' +
    'should shall may might tell explain help show give write make let hi hello hey thanks thank about need want know some any it this that ' +
    'por favor puedes podrías podrias puede cómo como qué que cuál cual cuáles dónde donde cuándo cuando quién me mi mis el la los las un una ' +
    'unos unas de del sobre explica explícame recomiéndame dime hola ayúdame ayudarme ayuda es son hay yo tú tu ' +
    'now also then am like ' +
    '안녕하세요 안녕 혹시 저는 제가 나는 내가 좀 그냥 어떻게 무엇을 뭐 왜 이 그'
  ).split(' '),
);
/** Words a title neither starts nor ends with: prepositions, conjunctions, articles (lower case). */
const TRAILING = new Set(
  (
    'a an the to of in at on for with and or but by from into through about over under between after before my your our its me us them ' +
    'de del en a y o con para por el la los las un una mi tu su sobre entre este esta estos estas ese esa'
  ).split(' '),
);
/**
 * Asking and politeness anywhere in a clause, and phrases that say how to answer: a title keeps
 * none of them ("Plan a trip to Jeju please", "ideas for me", "explain it in simple terms").
 */
const ASIDES = new RegExp(
  String.raw`\b(?:${[
    'please',
    'pls',
    'kindly',
    'just',
    'maybe',
    'perhaps',
    'possibly',
    'quickly',
    'thanks',
    'thank you',
    'thx',
    '(?:can|could|would|will) you',
    '(?:for|to) (?:me|us)',
    'if you (?:can|could)',
    '(?:is|are) like',
    'looking for',
    'step[ -]by[ -]step',
    'in (?:simple|plain|short|brief|easy|detail)(?: terms| words| language| english)?',
    'with (?:an )?examples?',
    'briefly',
    'in a few words',
    'por favor',
    'gracias',
    'para mí',
    'paso a paso',
  ].join('|')})(?=\s|[\p{P}\p{S}]|$)`,
  'giu',
);
/** Words that say how to answer, not about what (lower case). */
const MANNER = new Set('step steps detail details detailed plain simple simply words briefly brief short shortly clearly example examples'.split(' '));
/** Korean "give" after a verb that makes it a request ("짜 주세요", "추천해 줄 수 있어"). */
const KOREAN_GIVE = new Set('주세요 주십시오 줘 줘요 줄래 줄래요 주실래요 주시겠어요 주시겠습니까 줄'.split(' '));
/** Korean words that only ask, after the topic ("요약 부탁해요", "있나요", "수 있어"). */
const KOREAN_ASKING = new Set(
  '부탁해 부탁해요 부탁합니다 부탁드립니다 부탁드려요 알려줘 알려주세요 해줘 해주세요 좀 수 있어 있어요 있나요 있을까요 있습니까 할까요 인가요 뭐야 뭔가요 무엇인가요 가능한가요 가능할까요 될까요'.split(
    ' ',
  ),
);
/** A request joined to its verb: "짜줘", "만들어주세요", "추천해줄래". */
const KOREAN_JOINED_GIVE = /(?:주세요|주십시오|줘요|줘|줄래요|줄래|주실래요|주시겠어요)$/u;
const KOREAN_PARTICLE = /(을|를|은|는|이|가|에게|한테)$/u;
/** Chinese and Japanese asking around the topic. */
const UNSPACED_LEADING = /^(请问|请帮我|请给我|请|帮我|我想知道|能不能|可以|すみません|教えてください|教えて)+/u;
const UNSPACED_TRAILING = /(でしょうか|ですか|ますか|ください|教えて|について|吗|呢|吧|么|か|ね|よ)+$/u;
const HANGUL = /\p{Script=Hangul}/u;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const EDGE_PUNCTUATION = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;

const wordsOf = (clause: string) =>
  clause
    .split(/\s+/)
    .map((word) => word.replace(EDGE_PUNCTUATION, ''))
    .filter(Boolean);

const isContent = (word: string) => !FILLER.has(word.toLowerCase());
/** A word that says what the conversation is about: neither asking, nor a linking word, nor how to answer. */
const isTopic = (word: string) => isContent(word) && !TRAILING.has(word) && !MANNER.has(word);

/**
 * Drops Korean asking ("좀" anywhere, the request at the end) and the verb a request gave:
 * "추천해 주세요" → "추천", "일정을 짜 주세요" → "일정", "요약 부탁해요" → "요약".
 */
function trimKorean(words: string[]): string[] {
  const kept = words.filter((word) => word !== '좀');
  let gave = false;
  while (kept.length > 1) {
    const last = kept.at(-1)!;
    if (KOREAN_GIVE.has(last)) gave = true;
    else if (KOREAN_JOINED_GIVE.test(last)) {
      // The verb and its request in one word: keep a "…해" verb's noun ("추천해줘"), else drop the verb ("계획 짜줘").
      const verb = last.replace(KOREAN_JOINED_GIVE, '');
      if (/.해$/u.test(verb)) kept[kept.length - 1] = verb.slice(0, -1);
      else {
        kept.pop();
        kept[kept.length - 1] = kept.at(-1)!.replace(KOREAN_PARTICLE, '');
      }
      return kept;
    } else if (!KOREAN_ASKING.has(last)) break;
    kept.pop();
  }
  const last = kept.at(-1) ?? '';
  if (/.해$/u.test(last)) kept[kept.length - 1] = last.slice(0, -1);
  else if (gave && kept.length > 1) {
    kept.pop();
    kept[kept.length - 1] = kept.at(-1)!.replace(KOREAN_PARTICLE, '');
  }
  return kept;
}

function spacedTitle(clause: string): string {
  let words = wordsOf(clause);
  // Neither the asking nor a preposition starts a title ("How do I bake…", "…from the end-to-end test").
  while (words.length > 1 && (!isContent(words[0]!) || TRAILING.has(words[0]!.toLowerCase()))) words.shift();
  if (words.some((word) => HANGUL.test(word))) words = trimKorean(words);
  const title: string[] = [];
  for (const word of words.slice(0, TITLE_WORDS)) {
    if ([...title, word].join(' ').length > TITLE_CHARS) break;
    title.push(word);
  }
  while (title.length > 1 && TRAILING.has(title.at(-1)!.toLowerCase())) title.pop();
  const text = title.join(' ');
  return text.charAt(0).toLocaleUpperCase() + text.slice(1);
}

function unspacedTitle(clause: string): string {
  const topic = clause.replace(EDGE_PUNCTUATION, '').replace(UNSPACED_LEADING, '').replace(UNSPACED_TRAILING, '');
  return Array.from(topic || clause)
    .slice(0, TITLE_CHARS_UNSPACED)
    .join('');
}

/** A title made of the words of `question`, in the question's own language. */
export function demoTitle(question: string): string {
  const clauses = question
    .split(/[.?!。？！\n,;:，、；：]+/u)
    .map((clause) => clause.replace(ASIDES, ' ').trim())
    .filter((clause) => clause.replace(EDGE_PUNCTUATION, '') !== '');
  if (clauses.length === 0) return question.trim();
  // The first clause with two words about something ("Hello! How do I bake bread?" → the second;
  // "Explain, step by step, how…" → the third), else the one with the most.
  const score = (clause: string) =>
    /\s/.test(clause)
      ? new Set(
          wordsOf(clause)
            .map((word) => word.toLowerCase())
            .filter(isTopic),
        ).size
      : Array.from(clause).length / 4;
  const best = clauses.find((clause) => score(clause) >= 2) ?? clauses.reduce((chosen, clause) => (score(clause) > score(chosen) ? clause : chosen));
  return !/\s/.test(best) && UNSPACED_SCRIPT.test(best) ? unspacedTitle(best) : spacedTitle(best);
}
