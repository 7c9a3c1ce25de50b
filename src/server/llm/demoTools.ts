import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from '@ai-sdk/provider';
import type { SupportedLanguage } from '../../shared/domain/language';

/*
 * The demo model with tools (issue 24): offered the demo MCP server's `current_time` or
 * `convert_units`, it calls them when the member asks for the time or a conversion, then answers
 * quoting what the tool said. Plain matching of the question, in the five languages, nothing more.
 */

/** A call the demo model makes: the tool's name as offered, and its arguments as JSON. */
export interface DemoToolCall {
  toolName: string;
  input: string;
}

const ASKS_TIME = [
  /\bwhat(?:'s|’s| is)?\s+(?:the\s+)?time\b/i,
  /\btime\s+is\s+it\b/i,
  /\bcurrent\s+time\b/i,
  /\bthe\s+time\s+in\s+\p{L}/iu,
  /몇\s*시/,
  /현재\s*시간|지금\s*시간|시간이\s*몇/,
  /何時|今の時間|現在の時刻/,
  /几点|幾點|现在时间|現在時間/,
  /qu[ée]\s+hora/i,
];

/** Cities a question may name, in the five languages, and their IANA time zones. */
const CITY_ZONES: [RegExp, string][] = [
  [/seoul|서울|ソウル|首尔|首爾|se[úu]l/i, 'Asia/Seoul'],
  [/busan|부산/i, 'Asia/Seoul'],
  [/tokyo|도쿄|東京|东京|tokio/i, 'Asia/Tokyo'],
  [/beijing|shanghai|베이징|상하이|北京|上海|pek[íi]n/i, 'Asia/Shanghai'],
  [/new\s*york|뉴욕|ニューヨーク|纽约|紐約|nueva\s*york/i, 'America/New_York'],
  [/los\s*angeles|로스앤젤레스|ロサンゼルス|洛杉矶|洛杉磯/i, 'America/Los_Angeles'],
  [/london|런던|ロンドン|伦敦|倫敦|londres/i, 'Europe/London'],
  [/paris|파리|パリ|巴黎|par[íi]s/i, 'Europe/Paris'],
  [/berlin|베를린|ベルリン|柏林|berl[íi]n/i, 'Europe/Berlin'],
  [/madrid|마드리드|マドリード|马德里|馬德里/i, 'Europe/Madrid'],
  [/mexico|멕시코|メキシコ|墨西哥|m[ée]xico/i, 'America/Mexico_City'],
  [/sydney|시드니|シドニー|悉尼|s[íi]dney/i, 'Australia/Sydney'],
];

/** Unit names a question may use, each to the demo server's unit. */
const UNIT_ALIASES: [RegExp, string][] = [
  [/^(?:km|kilometers?|kilometres?|킬로미터|キロメートル|公里|kil[óo]metros?)$/i, 'km'],
  [/^(?:mi|miles?|마일|マイル|英里|millas?)$/i, 'mi'],
  [/^(?:m|meters?|metres?|미터|メートル|米|metros?)$/i, 'm'],
  [/^(?:cm|centimeters?|centimetres?|센티미터|センチ|厘米|cent[íi]metros?)$/i, 'cm'],
  [/^(?:mm|millimeters?|millimetres?|밀리미터|毫米|mil[íi]metros?)$/i, 'mm'],
  [/^(?:ft|feet|foot|피트|フィート|英尺|pies?)$/i, 'ft'],
  [/^(?:in|inch|inches|인치|インチ|英寸|pulgadas?)$/i, 'in'],
  [/^(?:yd|yards?|야드|ヤード|码|yardas?)$/i, 'yd'],
  [/^(?:kg|kilograms?|kilogrammes?|킬로그램|キログラム|千克|公斤|kilos?|kilogramos?)$/i, 'kg'],
  [/^(?:g|grams?|grammes?|그램|グラム|克|gramos?)$/i, 'g'],
  [/^(?:lb|lbs|pounds?|파운드|ポンド|磅|libras?)$/i, 'lb'],
  [/^(?:oz|ounces?|온스|オンス|盎司|onzas?)$/i, 'oz'],
  [/^(?:°?c|celsius|섭씨|摂氏|摄氏|grados?\s*celsius)$/i, 'C'],
  [/^(?:°?f|fahrenheit|화씨|華氏|华氏)$/i, 'F'],
  [/^(?:k|kelvin|켈빈|ケルビン|开尔文)$/i, 'K'],
];

const unitOf = (word: string): string | null => UNIT_ALIASES.find(([pattern]) => pattern.test(word))?.[1] ?? null;

/** Words of a question: runs of letters (or a degree sign and a letter), split from particles like 를, 로, に. */
const WORDS = /°?[A-Za-z\u00C0-\u024F]+|[\uAC00-\uD7A3]+|[\u3040-\u30FF\u4E00-\u9FFF]+/g;

/** Korean and Japanese particles a unit name may carry ("마일로", "킬로미터를", "マイルに"). */
const stripParticle = (word: string) => word.replace(/(?:으로|로|를|을|은|는|에서|は|に|を|へ|で)$/u, '');

/** "convert 10 km to miles", "10 km in mi", "10킬로미터를 마일로": the value, its unit and the unit asked for. */
export function conversionAsked(question: string): { value: number; from: string; to: string } | null {
  const first = /(-?\d+(?:[.,]\d+)?)\s*(°?[A-Za-z\u00C0-\u024F]+|[\uAC00-\uD7A3]+|[\u3040-\u30FF\u4E00-\u9FFF]+)/u.exec(question);
  if (!first?.[1] || !first[2]) return null;
  const from = unitOf(first[2]) ?? unitOf(stripParticle(first[2]));
  if (!from) return null;
  const rest = question.slice(first.index + first[0].length);
  // The last unit named after it: "10 km in mi" names `in` as a word before `mi`.
  const to = [...rest.matchAll(WORDS)]
    .map(([word]) => unitOf(word) ?? unitOf(stripParticle(word)))
    .filter((unit): unit is string => unit !== null && unit !== from)
    .at(-1);
  return to ? { value: Number(first[1].replace(',', '.')), from, to } : null;
}

/** The time zone of the city a question names, else UTC. */
export const timeZoneAsked = (question: string) => CITY_ZONES.find(([pattern]) => pattern.test(question))?.[1] ?? 'UTC';

export const asksTime = (question: string) => ASKS_TIME.some((pattern) => pattern.test(question));

/** The call the demo makes for the member's question, when it is offered a tool that answers it. */
export function demoToolCall(options: LanguageModelV4CallOptions, question: string): DemoToolCall | null {
  if (options.toolChoice?.type === 'none') return null;
  const offered = new Set((options.tools ?? []).map((tool) => tool.name));
  if (offered.has('current_time') && asksTime(question)) return { toolName: 'current_time', input: JSON.stringify({ time_zone: timeZoneAsked(question) }) };
  const conversion = offered.has('convert_units') ? conversionAsked(question) : null;
  return conversion ? { toolName: 'convert_units', input: JSON.stringify(conversion) } : null;
}

/** The tool results the prompt ends with (the step after the demo's call), as text. */
export function trailingToolResults(prompt: LanguageModelV4Prompt): { toolName: string; text: string }[] {
  const last = prompt.at(-1);
  if (last?.role !== 'tool') return [];
  return last.content.flatMap((part) => {
    if (part.type !== 'tool-result') return [];
    const { output } = part;
    const text =
      output.type === 'text' || output.type === 'error-text'
        ? output.value
        : output.type === 'json' || output.type === 'error-json'
          ? JSON.stringify(output.value)
          : output.type === 'execution-denied'
            ? (output.reason ?? 'denied')
            : '';
    return [{ toolName: part.toolName, text }];
  });
}

/** The demo's answer after its tool call: what the tool said, quoted, in the member's language. */
export const TOOL_ANSWERS: Record<SupportedLanguage, (tool: string, result: string) => string> = {
  en: (tool, result) => `**Demo model** — I asked the tool \`${tool}\`. It answered:\n\n> ${result}`,
  ko: (tool, result) => `**데모 모델** — 도구 \`${tool}\`에 물어보았습니다. 도구의 답:\n\n> ${result}`,
  zh: (tool, result) => `**演示模型** — 我调用了工具 \`${tool}\`，它的回答：\n\n> ${result}`,
  ja: (tool, result) => `**デモモデル** — ツール \`${tool}\` に問い合わせました。ツールの回答：\n\n> ${result}`,
  es: (tool, result) => `**Modelo de demostración** — Consulté la herramienta \`${tool}\`. Respondió:\n\n> ${result}`,
};
