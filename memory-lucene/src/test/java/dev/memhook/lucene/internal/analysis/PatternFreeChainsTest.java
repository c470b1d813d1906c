package dev.memhook.lucene.internal.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.memhook.lucene.internal.analysis.CodeAwareAnalyzer.Variant;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthCharFilter;
import org.apache.lucene.analysis.core.FlattenGraphFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.miscellaneous.LengthFilter;
import org.apache.lucene.analysis.miscellaneous.PatternKeywordMarkerFilter;
import org.apache.lucene.analysis.miscellaneous.WordDelimiterGraphFilter;
import org.apache.lucene.analysis.ngram.EdgeNGramTokenFilter;
import org.apache.lucene.analysis.pattern.PatternCaptureGroupTokenFilter;
import org.apache.lucene.analysis.pattern.PatternReplaceFilter;
import org.apache.lucene.analysis.pattern.PatternTokenizer;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.analysis.tokenattributes.KeywordAttribute;
import org.apache.lucene.analysis.tokenattributes.OffsetAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionIncrementAttribute;
import org.apache.lucene.analysis.tokenattributes.PositionLengthAttribute;
import org.apache.lucene.analysis.tokenattributes.TermFrequencyAttribute;
import org.apache.lucene.analysis.tokenattributes.TypeAttribute;
import org.junit.jupiter.api.Test;

/**
 * The code-aware chains index and query exactly as they did when they were built from Lucene's
 * pattern components: an index written by either version is read the same by the other. The oracle
 * is the previous chain, rebuilt here from those components with its regular expressions.
 */
class PatternFreeChainsTest {

  private static final String CJK = "\\p{IsHan}\\p{IsHiragana}\\p{IsKatakana}\\p{IsHangul}\\u30FC";
  private static final String TOKEN_CHARS = "\\p{L}\\p{N}\\p{M}_./\\\\@#$~+'\u2019-";
  private static final Pattern TOKEN =
      Pattern.compile("[" + CJK + "]+|[[" + TOKEN_CHARS + "]&&[^" + CJK + "]]+");
  private static final Pattern CJK_RUN = Pattern.compile("^[" + CJK + "]+$");
  private static final Pattern TRIM = Pattern.compile("^[^\\p{L}\\p{N}]+|[^\\p{L}\\p{N}]+$");
  private static final Pattern SHA = Pattern.compile("(?=[0-9a-fA-F]*[0-9])[0-9a-fA-F]{7,40}");
  private static final Pattern SHA_IN_TEXT =
      Pattern.compile("(?<![\\p{L}\\p{N}])" + SHA.pattern() + "(?![\\p{L}\\p{N}])");
  private static final Pattern PATH_SUFFIX = Pattern.compile("[/\\\\](?=([^/\\\\]+.*))");
  private static final Pattern PATH_SEGMENT =
      Pattern.compile("(?:^|[/\\\\])([^/\\\\.]+)(?=[./\\\\])");

  /** Pieces the seeded texts are made of: every class boundary the chains decide on. */
  private static final String[] PIECES = {
    " ",
    " ",
    "\n",
    "\t",
    "word",
    "Fixed",
    "parseUserId",
    "parse_user_id",
    "E0425",
    "v2.3.1",
    "src/middleware/AuthMiddleware.java",
    "C:\\Users\\x",
    "-pl",
    "--flag=1",
    "a.b.",
    "(x)",
    ",",
    ";",
    "'",
    "\u2019s",
    "@user",
    "#12",
    "$HOME",
    "~/.m2",
    "+1",
    "...",
    "-",
    "/",
    "\\",
    "\"",
    "中文",
    "検索",
    "ひらがな",
    "カタカナ",
    "한국어",
    "\u1100",
    "\u10ff",
    "\u30fc",
    "ｶﾀｶﾅ",
    "ＡＢＣ１２",
    "\u0301",
    "e\u0301",
    "\u0660\u0661",
    "\u00bd",
    "\u2163",
    "\ud835\udc00",
    "\ud840\udc00",
    "\ud83d\ude00",
    "\ud800",
    "\udc00",
    "\u00a0",
    "\u200b",
    "\u3000",
    "\ufeff",
    "ß",
    "İ",
    "ǅ",
    "cafe",
    "deadbee",
    "0123456",
    "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0",
    "a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0ff",
    "ABCDEF1",
    "abcdefa",
    "12345678"
  };

  /** Texts at the edges every seed must meet, whatever it draws. */
  private static final List<String> EDGES =
      List.of(
          "",
          "\ud840\udc0012345678", // a SHA's edge after a supplementary ideograph
          "a\ud835\udc00deadbee1",
          "提交12345678修复",
          "Fixed src/middleware/AuthMiddleware.java.",
          "中文ｶﾀｶﾅ한국어ー and ＡＢＣ",
          "e\u0301t\u00e9",
          "\ud800abc\udc00",
          "-- ... ''",
          "deadbeef a1b2c3d deadbee 1234567890123456789012345678901234567890a");

  @Test
  void eachCharacterClass_agreesWithItsPattern_atEveryCodePoint() {
    Pattern cjk = Pattern.compile("[" + CJK + "]");
    Pattern token = Pattern.compile("[" + TOKEN_CHARS + "]");
    Pattern letterOrNumber = Pattern.compile("[\\p{L}\\p{N}]");
    for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
      String s = new String(Character.toChars(cp));
      assertEquals(cjk.matcher(s).matches(), TokenChars.isCjk(cp), "isCjk " + cp);
      assertEquals(token.matcher(s).matches(), TokenChars.isTokenChar(cp), "isTokenChar " + cp);
      assertEquals(
          letterOrNumber.matcher(s).matches(),
          TokenChars.isLetterOrNumber(cp),
          "isLetterOrNumber " + cp);
    }
  }

  @Test
  void everyVariant_analysesSeededTexts_asThePatternChainDid() throws IOException {
    long seed = System.nanoTime();
    System.out.println("PatternFreeChainsTest seed " + seed);
    Random random = new Random(seed);
    for (Variant variant : Variant.values()) {
      try (Analyzer now = CodeAwareAnalyzer.of(variant);
          Analyzer before = new PatternChain(variant)) {
        for (String text : EDGES) {
          assertEquals(tokens(before, text), tokens(now, text), variant + ", text '" + text + "'");
        }
        for (int n = 0; n < 3_000; n++) {
          String text = text(random);
          assertEquals(
              tokens(before, text),
              tokens(now, text),
              "seed " + seed + ", " + variant + ", text '" + text + "'");
        }
      }
    }
  }

  @Test
  void aLongTextWithoutSeparators_isOneTokenWithItsOffsets() throws IOException {
    String text = "x".repeat(1_000_000) + " end";
    try (Analyzer exact = CodeAwareAnalyzer.of(Variant.EXACT);
        Analyzer before = new PatternChain(Variant.EXACT)) {
      // the length filter drops the long run in both; "end" keeps its offsets past it
      assertEquals(tokens(before, text), tokens(exact, text));
      List<String> tokens = tokens(exact, text);
      assertEquals(2, tokens.size(), tokens.toString()); // "end", then the end state
      assertEquals("end@1000001-1000004", tokens.get(0).substring(0, 19));
    }
  }

  private static String text(Random random) {
    StringBuilder text = new StringBuilder();
    int pieces = random.nextInt(12);
    for (int i = 0; i < pieces; i++) {
      text.append(PIECES[random.nextInt(PIECES.length)]);
      if (random.nextInt(4) == 0) {
        text.append((char) random.nextInt(0x3100)); // any character of the lower planes
      }
    }
    return text.toString();
  }

  /**
   * Every token of {@code text} with its offsets, position, type, frequency and keyword flag, then
   * the stream's end state.
   */
  private static List<String> tokens(Analyzer analyzer, String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = analyzer.tokenStream("f", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      OffsetAttribute offset = ts.addAttribute(OffsetAttribute.class);
      PositionIncrementAttribute increment = ts.addAttribute(PositionIncrementAttribute.class);
      PositionLengthAttribute length = ts.addAttribute(PositionLengthAttribute.class);
      TypeAttribute type = ts.addAttribute(TypeAttribute.class);
      TermFrequencyAttribute frequency = ts.addAttribute(TermFrequencyAttribute.class);
      KeywordAttribute keyword = ts.addAttribute(KeywordAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(
            term
                + "@"
                + offset.startOffset()
                + "-"
                + offset.endOffset()
                + " pos"
                + increment.getPositionIncrement()
                + " len"
                + length.getPositionLength()
                + " "
                + type.type()
                + " tf"
                + frequency.getTermFrequency()
                + " kw="
                + keyword.isKeyword());
      }
      ts.end();
      out.add("end@" + offset.endOffset() + " pos" + increment.getPositionIncrement());
    }
    return out;
  }

  /** The chains as they were built from Lucene's pattern components. */
  private static final class PatternChain extends Analyzer {
    private final Variant variant;

    PatternChain(Variant variant) {
      this.variant = variant;
    }

    @Override
    protected Reader initReader(String fieldName, Reader reader) {
      return new CJKWidthCharFilter(reader);
    }

    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      if (variant == Variant.HEX_INDEX || variant == Variant.HEX_QUERY) {
        Tokenizer hex = new PatternTokenizer(SHA_IN_TEXT, 0);
        TokenStream stream = new LowerCaseFilter(hex);
        if (variant == Variant.HEX_INDEX) {
          stream = new EdgeNGramTokenFilter(stream, 7, 40, true);
        }
        return new TokenStreamComponents(hex, stream);
      }
      Tokenizer source = new PatternTokenizer(TOKEN, 0);
      TokenStream stream = new PatternCjkTyping(source);
      stream = new CJKBigramFilter(stream);
      stream = new PatternReplaceFilter(stream, TRIM, "", true);
      stream = new LengthFilter(stream, 1, 255);
      if (variant == Variant.CODE) {
        stream = new PatternKeywordMarkerFilter(stream, SHA);
        stream = new PatternCaptureGroupTokenFilter(stream, true, PATH_SUFFIX, PATH_SEGMENT);
        stream =
            new WordDelimiterGraphFilter(
                stream,
                WordDelimiterGraphFilter.GENERATE_WORD_PARTS
                    | WordDelimiterGraphFilter.GENERATE_NUMBER_PARTS
                    | WordDelimiterGraphFilter.CATENATE_WORDS
                    | WordDelimiterGraphFilter.SPLIT_ON_CASE_CHANGE
                    | WordDelimiterGraphFilter.SPLIT_ON_NUMERICS
                    | WordDelimiterGraphFilter.PRESERVE_ORIGINAL
                    | WordDelimiterGraphFilter.STEM_ENGLISH_POSSESSIVE
                    | WordDelimiterGraphFilter.IGNORE_KEYWORDS,
                null);
        stream = new FlattenGraphFilter(stream);
      }
      stream = new LowerCaseFilter(stream);
      if (variant == Variant.CODE) {
        stream = new PorterStemFilter(stream);
      }
      return new TokenStreamComponents(source, stream);
    }
  }

  /** Types a whole-CJK token as {@code <IDEOGRAPHIC>}, by the pattern. */
  private static final class PatternCjkTyping extends TokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final TypeAttribute type = addAttribute(TypeAttribute.class);
    private final Matcher matcher = CJK_RUN.matcher("");

    PatternCjkTyping(TokenStream input) {
      super(input);
    }

    @Override
    public boolean incrementToken() throws IOException {
      if (!input.incrementToken()) {
        return false;
      }
      if (matcher.reset(term).matches()) {
        type.setType(StandardTokenizer.TOKEN_TYPES[StandardTokenizer.IDEOGRAPHIC]);
      }
      return true;
    }
  }
}
