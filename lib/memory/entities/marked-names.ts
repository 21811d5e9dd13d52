// Chinese, Japanese, Korean and Thai have no capitals to tell a name by, and the English models read none of them.
// What these languages do mark is a person by an honorific or a title next to the name (田中さん, 王先生, 민수 씨,
// คุณสมชาย) and an administrative place by its suffix (横浜市, 大阪府, 广东省). ICU's word segmentation
// (Intl.Segmenter) says where the word before the mark starts. A name said without its mark is not found: that
// takes a model, and none ships here.
import type { EntityKind } from "../common/entity-kinds";

export interface MarkedName {
  name: string;
  kind: Extract<EntityKind, "person" | "place">;
}

const segmenter = new Intl.Segmenter("und", { granularity: "word" });

/** A run of Han or Katakana letters (names and place names in Chinese and Japanese). */
const HAN_OR_KATAKANA = /^[\p{Script=Han}\p{Script=Katakana}ー]+$/u;
/** Said after a person's name in Japanese (さん, 様, 氏, 君, くん, ちゃん, 先生) or Chinese (先生, 女士, 小姐, 老师). */
const PERSON_AFTER = new Set([
  "さん",
  "様",
  "さま",
  "氏",
  "君",
  "くん",
  "ちゃん",
  "先生",
  "女士",
  "小姐",
  "老师",
  "老師",
]);
/** Ends the name of a city, prefecture or province (横浜市, 大阪府, 神奈川県, 广东省). */
const PLACE_SUFFIX = /^.{2,}[市県府省]$/u;
const PLACE_SUFFIX_ALONE = new Set(["市", "県", "府", "省"]);

/** Korean: a name of two to four Hangul syllables before 씨 or 님 (민수 씨, 지영님이), but for titles (선생님). */
const KOREAN_PERSON =
  /(?<![\p{Script=Hangul}])(\p{Script=Hangul}{2,4})\s?(?:씨|님)(?=\p{Script=Hangul}{0,2}(?![\p{L}]))/gu;
const KOREAN_TITLES = new Set([
  "선생",
  "사장",
  "부장",
  "과장",
  "팀장",
  "교수",
  "회장",
  "고객",
  "여러분",
  "의사",
  "기사",
]);

/** Thai: the word after คุณ (Khun), นาย (Mr), นาง (Mrs) or นางสาว (Miss). */
const THAI_PERSON_BEFORE = new Set(["คุณ", "นาย", "นาง", "นางสาว"]);
const THAI_WORD = /^\p{Script=Thai}{2,}$/u;

const MARKED_SCRIPT = /[\p{Script=Han}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

/**
 * The people and places a text in Chinese, Japanese, Korean or Thai marks as such, in the order they appear
 * (repeats included; the caller counts mentions). Deterministic; empty for text in other scripts.
 */
export function markedNames(text: string): MarkedName[] {
  if (!MARKED_SCRIPT.test(text)) return [];
  const found: MarkedName[] = [];
  const words = [...segmenter.segment(text)].map((s) => s.segment);
  words.forEach((word, i) => {
    if (PERSON_AFTER.has(word)) {
      const name = hanNameBefore(words, i);
      if (name) found.push({ name, kind: "person" });
    } else if (PLACE_SUFFIX_ALONE.has(word)) {
      const stem = words[i - 1];
      if (stem && stem.length >= 2 && HAN_OR_KATAKANA.test(stem)) found.push({ name: stem + word, kind: "place" });
    } else if (HAN_OR_KATAKANA.test(word) && PLACE_SUFFIX.test(word)) {
      found.push({ name: word, kind: "place" });
    } else if (THAI_PERSON_BEFORE.has(word) && THAI_WORD.test(words[i + 1] ?? "")) {
      found.push({ name: words[i + 1], kind: "person" });
    }
  });
  for (const match of text.matchAll(KOREAN_PERSON))
    if (!KOREAN_TITLES.has(match[1])) found.push({ name: match[1], kind: "person" });
  return found;
}

/**
 * The common Chinese surnames (of the hundred most common, those that are not also a preposition or a conjunction:
 * 于, 向, 和 are left out), by which a name ICU cut in two is known: 张|伟 is one name, 给|刘 is not.
 */
const SURNAMES = new Set(
  "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔汤",
);

/**
 * The Han or Katakana name just before an honorific: the word before it, with the surname before that when ICU cut
 * a Chinese name in two (张|伟|老师 is 张伟; 见了|王|先生 is 王; 我给|刘|先生 is 刘).
 */
function hanNameBefore(words: string[], at: number): string | null {
  const last = words[at - 1];
  if (!last || !HAN_OR_KATAKANA.test(last)) return null;
  const before = words[at - 2];
  if (last.length <= 2 && before !== undefined && SURNAMES.has(before)) return before + last;
  return last;
}
