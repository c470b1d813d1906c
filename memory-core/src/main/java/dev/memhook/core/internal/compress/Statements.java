package dev.memhook.core.internal.compress;

import dev.memhook.api.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the standing statements in what a user said: the preferences, decisions, conventions,
 * workflows and facts a later session should know, however they were worded, and tells them from
 * the requests, questions, problem reports and courtesies around them.
 *
 * <p>How a message is read:
 *
 * <ol>
 *   <li><b>Clauses.</b> The message is cut into sentences, and each sentence again where one
 *       message carries two things: at an aside's opener ("Anyway,", "Oh and btw,", "Also,", "Now,"
 *       but not "right now," nor the "now" that closes a clause, "it's kamal now, not capistrano";
 *       "btw" and "fyi" also without a comma), around a parenthesised aside ("(FYI …)"), at a
 *       semicolon, unless what follows it completes an instruction ("never use npm here; use
 *       pnpm"), and before a task that follows a fact ("the real one is com.pebblepay.mobile, fix
 *       both platforms": {@link #withoutTrailingRequest}). A lead-in that only announces a
 *       statement ("remember that", "FYI", "Quick note before we start:", "heads up", "small thing
 *       about me:") is removed, and a clause that is nothing but one is no statement; so is a
 *       hesitation or reply word ("hmm", "yeah", "ok then just"), which makes the clause neither a
 *       statement nor a request; a lead-in that announces a correction ("correction:", "actually",
 *       "scratch that", "update:", "turns out", "oops") marks it, and one that names its subject
 *       ("change of plan on the MSRV:") leaves the subject. A clause that only says something said
 *       before was wrong ("wait no, I mixed it up", "scratch the 1.21 thing", "I gave you the wrong
 *       bundle id") is no statement, and marks every statement after it in the message a
 *       correction. A clause that rules something out ("no CBVs please", "can we not use iostream",
 *       "eh no, not a whole component lib") and the clause after it that says what to do instead
 *       ("plain function-based views", "just use a plain dialog element", "kotest assertions pls")
 *       are one preference: apart, the second reads as a request of the moment.
 *   <li><b>Standing or not.</b> A question, a fragment or scaffolding ({@link FactAdmission}) is
 *       not. A request is not: a clause that opens with a verb telling the agent what to do now
 *       ("add…", "can you…", "please fix…", "need a…"), unless it says it holds beyond this task
 *       (always, never, every, from now on, whenever, before you, by default…), chooses between
 *       alternatives with a verb of manner ("use pnpm, not npm") or opens with a negation
 *       ("don't…", "never…"), gives the speaker's own liking as its reason ("mock with MockK — I
 *       can't stand Mockito's backticks") or sets a condition ("if there's a migration, deploy
 *       first then …"), which make it a standing instruction. A request worded as a question ("can
 *       you always use spaces", "can we please stick to spaces", "would you …") is read as the
 *       imperative it asks, "please always use spaces", by the same rules; it is a question and no
 *       statement when it ends with a question mark and says no "please" ("could we use Redis
 *       here?") or asks for an answer ("can you explain why the build fails"), unless its own words
 *       say it holds from now on ("can you use spaces from now on?"). "We need to …" and "we should
 *       …" ask too when they name a change to make or say when ("we should add tracking", "we need
 *       to ship it today"; "we need to support Python 3.9" is a constraint); "let's go with Redis",
 *       a decision's wording that names its choice, is a decision, and so is a choice under a label
 *       however short ("decision: solid queue"). Numbered steps after a lead that says they are a
 *       procedure ("how releases work here: 1) bump … 2) tag …") are a workflow, whatever the
 *       lead's verb. A report of a problem (fails, error, slow, broken, typo…) is not: the bug's
 *       consolidation keeps it with its fix; but an instruction that names a problem as its reason
 *       or its subject ("never use npm, it breaks the lockfile", "never ignore a failing test") is
 *       one, and so is an order under a condition ("when you return errors wrap them with
 *       fmt.Errorf"). A problem word counts only in the main clause: inside an exception to a rule
 *       ("unless …", "except when …", "except if …") it qualifies the rule, "one line is plenty
 *       unless the function does something genuinely weird", when what is left says something on
 *       its own and not that something works ("the checkout page works unless the cart has a weird
 *       discount code" reports). A word that opens requests but is followed by a verb of being is a
 *       noun ("mock server runs on my desktop"). Everything else that is declarative is a standing
 *       statement, including a label before one ("how releases work here: nobody bumps versions by
 *       hand") and three words that state a value ("staging is eu-central-1"); a lead-in that asks
 *       to remember makes any admitted clause one. A clause of courtesy words only ("good enough
 *       for now") is not one. A request may carry a rule in brackets ("scaffold the package (for
 *       new packages I'd rather use vitest)"): the bracket is read as a clause of its own.
 *   <li><b>The message around it.</b> In a message that reports a problem (in a main clause, as
 *       above) without asking for its fix, a plain fact that names nothing ("started after last
 *       week's deploy, I think") is the report's context and is left out.
 *   <li><b>Type</b>, from the wording, first match wins: a first-person liking or an instruction
 *       about how to work is a {@link MemoryType#PREFERENCE}; a choice made ("decided", "agreed",
 *       "settled on", "chose", "going with", "is out") a {@link MemoryType#DECISION}; a procedure
 *       ("to release, …", "before merging, …", "for a hotfix, …") a {@link MemoryType#WORKFLOW}; a
 *       team's rule ("our convention", "we keep", "always", "never", "every") a {@link
 *       MemoryType#PATTERN}; anything else (environment, ownership, personal facts) a {@link
 *       MemoryType#FACT}.
 *   <li><b>Correction.</b> A statement marked by its lead-in, or worded as a change ("moved to",
 *       "switched", "replaced", "no longer", "now", "anymore", "is gone") corrects what the scope
 *       knew about its subject; the caller replaces that memory with it. "Now" that says when is no
 *       change: "right now", "for now", after a verb saying that something works or can be seen
 *       ("it builds now", "I can actually see it now") or after what the speaker just did ("I
 *       pasted it now"), and neither is a change told as the time of what is said ("that bit us
 *       when copy changed").
 * </ol>
 *
 * <p>Plain phrase rules, cheap and predictable; they read words any user would use, not one data
 * set's phrasings. Stateless and thread-safe.
 */
final class Statements {

  /** One standing statement: its type, its text without lead-ins, and whether it corrects. */
  record Statement(MemoryType type, String text, boolean correction) {}

  /**
   * Openers of an aside inside one sentence: what follows is a separate clause. "Now," opens one
   * only where it starts something: capitalised, a sentence whose full stop was left out ("moving
   * to PostgreSQL 16 Now, add a toString"), or after a mark that ends a part ("ok, now: the
   * migrations") or "not" ("not now, I'll open an issue"). A lower-case "now" straight after a word
   * is the adverb that closes its clause ("it's #infra-pager now, not the old one"; "the controller
   * lives on the NUC now, hostname nuc-shed"): cut there, the clause lost the word that makes it a
   * correction and what follows lost what it was said of.
   */
  private static final Pattern ASIDE =
      Pattern.compile(
          "(?i)(?<=\\S)\\s+(?:anyway|oh,? and btw|oh,? and by the way|btw|by the way|also|and also"
              + "|oh and|ps)\\s*[,:]\\s+"
              + "|(?<=\\S)(?<!\\bright|\\bfor|\\bjust|\\bby)\\s+(?-i:Now)\\s*[,:]\\s+"
              + "|(?:(?<=[.!?]|\\bnot)|\\s*[,;:\u2014\u2013])\\s+now\\s*[,:]\\s+"
              + "|(?<=\\S)\\s+(?:btw|fyi)\\s+(?=\\w)");

  /** A parenthesised aside, "(FYI …)", taken as a clause of its own. */
  private static final Pattern PAREN = Pattern.compile("(?i)\\(((?:fyi|note|btw|ps)\\b.+?)\\)");

  /** Lead-ins that announce a statement; removed, and they make the clause one to keep. */
  private static final Pattern ANNOUNCE =
      Pattern.compile(
          "(?i)^(?:(?:quick|small|one|a|\\w+ing) note(?: before we start)?\\s*[:,-]?|note that"
              + "|fyi\\s*[:,-]?"
              + "|(?:one|a|quick|small|general|another|last)\\s+(?:more\\s+)?(?:\\w+\\s+)?(?:thing|one)"
              + "(?:\\s+(?:about me|for later|while you're (?:in )?there|before [\\w ]{2,20}))?"
              + "\\s*[:,.—–-]|for later\\s*[:,—–-]"
              + "|heads[ -]up\\s*[:,-]?|just so you know\\s*[:,-]?|for the record\\s*[:,-]?"
              + "|(?:please\\s+)?(?:remember|keep in mind|don't forget|do not forget|note)"
              + "(?:\\s+that)?\\s*[:,-]?|for future reference\\s*[:,-]?|important\\s*[:,-]?"
              + "|(?:oh,? )?and\\s+|(?:also|anyway|now|by the way|oh and btw|ps)\\s*[,:]"
              + "|btw\\s*[,:]?)\\s*");

  /**
   * A procedure given as numbered steps after a lead that says it is one ("how releases work here:
   * 1) bump … 2) tag …", "the steps: 1. … 2. …"): a workflow, whatever verb the lead opens with.
   */
  private static final Pattern NUMBERED_STEPS =
      Pattern.compile(
          "(?i)\\b(?:how|process|steps?|workflow|procedure|routine)\\b[^:]{0,80}:\\s*(?:1[.)]"
              + "|step 1\\b).+?\\b2[.)]\\s");

  /**
   * A need or an intention of the team ("we need to …", "we should …"), with its verb: work to do
   * when the verb makes a change to the code ({@link #TASK_VERBS}) or the clause says when ({@link
   * #SOON}); a constraint otherwise ("we need to support Python 3.9 for the old servers", "we have
   * to keep the API backwards compatible").
   */
  private static final Pattern NEEDS =
      Pattern.compile("(?:we|i) (?:need|have|got) to (\\w+)|we (?:should|gotta) (\\w+)");

  /** Verbs of a change to make, after "we need to" or "we should": "we should add tracking". */
  private static final Set<String> TASK_VERBS =
      Set.of(
          "add",
          "fix",
          "write",
          "ship",
          "implement",
          "create",
          "refactor",
          "rename",
          "delete",
          "remove",
          "update",
          "finish",
          "clean",
          "tidy",
          "introduce",
          "set");

  /** Says the work is for now: "today", "this week", "asap". */
  private static final Pattern SOON =
      Pattern.compile(
          "\\b(?:today|tonight|tomorrow|this (?:week|sprint|morning|afternoon)|asap)\\b");

  /** Hesitations and reply words: "hmm", "ugh", "ok", "yeah", "then", "just". */
  private static final String INTERJECTIONS =
      "h+m+|u+m+|u+h+|ugh|eh|meh|a+h+|oh|ok(?:ay)?|yeah|yep|yes|yup|sure|well|then|just";

  /**
   * A hesitation or a reply word before a clause ("hmm use polars…", "yeah docker runs…", "ok then
   * just run a plan…"); removed, and it makes the clause neither a statement nor a request.
   */
  private static final Pattern HESITATION =
      Pattern.compile("(?i)^(?:" + INTERJECTIONS + ")\\b[,.!…]*\\s+");

  /**
   * A choice given under a label ("decision: solid queue.", "verdict — GRDB"): a decision however
   * short, since the label says what it is.
   */
  private static final Pattern DECISION_LABEL =
      Pattern.compile(
          "(?i)^(?:decision|decided|verdict|final (?:call|decision|answer)|the call|choice)"
              + "\\s*[:—–-]\\s*\\S");

  /**
   * A rule given under a label ("rule in this codebase: every topic name comes from Topics",
   * "convention — tests sit next to the code"): standing however it goes on, since the label says
   * what it is, also where a part after a comma reads as a request ("…, format \"plot:<id>\"").
   */
  private static final Pattern RULE_LABEL =
      Pattern.compile(
          "(?i)^(?:(?:a|the|our|house|team|project|hard|one) )?(?:rule|convention|policy)"
              + "(?: (?:in|for|of) (?:this|our|the) (?:codebase|code ?base|repo|repository|project"
              + "|team|code))?\\s*[:—–-]\\s*\\S");

  /** Says that something is fine: beside a reported problem, the contrast that locates it. */
  private static final Pattern FINE =
      Pattern.compile(
          "(?i)\\b(?:(?:is|are|was|were|works?|worked|looks?|seems?|runs?|renders?|builds?)"
              + " (?:totally |perfectly |just |all )?fine|works? (?:on my (?:machine|laptop|box|mac)"
              + "|locally|for me)|the same (?:\\w+ ){1,2}(?:works|worked|returns|returned|gives|gave"
              + "|passes|passed|is fine))\\b");

  /**
   * An alternative offered in place of what was just ruled out ("use date-fns instead", "return
   * std::expected instead"), not a clause that names what it replaces ("instead of X, …").
   */
  private static final Pattern INSTEAD = Pattern.compile("(?i)\\binstead\\b(?! of\\b)");

  /**
   * Asks to stop a habit ("please stop using count for collections", "stop adding emojis to commit
   * messages"): an instruction for every later time, as "never" is; "stop the server" asks for
   * something once.
   */
  private static final Pattern STOP_HABIT = Pattern.compile("^(?:please |pls )?stop [a-z]+ing\\b");

  /**
   * The speaker's own liking or dislike ("I can't stand Mockito's backticks", "i find the lazy API
   * much nicer"): a reason that makes a request beside it how they want things done, not a task.
   */
  private static final Pattern LIKING =
      Pattern.compile(
          "(?i)\\bi (?:(?:really|just|much|truly|strongly) )?(?:prefer|love|hate|dislike|can't"
              + " stand|cannot stand|cant stand|don't like|dont like|do not like|find [^.]{1,60}?"
              + " (?:nicer|better|easier|cleaner|clearer))\\b");

  /** The words that announce a correction, alone or before the subject they correct. */
  private static final String CORRECTION_LEADS =
      "correction|update|updated|change of plans?|small correction|one correction";

  /**
   * Lead-ins that announce a correction; removed, and they mark the statement a correction. One
   * that names its subject before a colon ("change of plan on the MSRV: we're bumping it to 1.75")
   * leaves the subject ("On the MSRV: …"), which says what the statement corrects; one that names
   * who changed it ("change of plans from the warehouse people: …") goes whole.
   */
  private static final Pattern CORRECTS =
      Pattern.compile(
          "(?i)^(?:(?:actually(?:,? scratch that)?|scratch that|turns out(?: that)?)\\s*[:,;.-]?"
              + "|(?:"
              + CORRECTION_LEADS
              + "|wait|oops|my bad|my mistake)(?:\\s+from\\s+[^:.;]{1,40})?\\s*[:,;.-]|(?:"
              + CORRECTION_LEADS
              + ")(?=\\s+(?:on|for|about|re|regarding)\\s+[^:.;]{1,40}:))"
              + "\\s*(?:no\\s*[,;:—–-]+\\s*)?");

  /**
   * A clause that only says something said before was wrong ("wait no, I mixed it up", "scratch the
   * 1.21 thing", "ugh, I gave you the wrong bundle id"): it is kept as nothing, and the statements
   * after it in the same message are corrections.
   */
  private static final Pattern RETRACTS =
      Pattern.compile(
          "(?i)^(?:(?:ugh|oops|sorry|argh|hmm|wait|no|nope|ah|oh|ok|okay)[,!.]?\\s+)*(?:i"
              + " (?:(?:totally|completely)\\s+)?(?:mixed (?:it|that|them|those|things) up|misspoke"
              + "|was wrong|got (?:it|that|this) wrong|had (?:it|that|this) wrong|gave you the wrong"
              + "|told you the wrong|said the wrong|meant)|my (?:bad|mistake)|scratch (?:that|the)\\b"
              + "|ignore (?:what i said|that|my last)|that was wrong|that's wrong|that is wrong"
              + "|that's not right|that was a mistake)");

  /** Tails that only ask to remember ("…, remember that", "keep that in mind"). */
  private static final Pattern TAIL =
      Pattern.compile(
          "(?i)[,;.\\s-]*(?:please\\s+)?(?:remember that|remember this|keep that in mind|keep this in"
              + " mind|note that|for future reference|going forward|thanks|thank you|(?:not urgent,?"
              + " )?just so you know|not urgent|fyi|for the record)[.!]?$");

  private static final Pattern REMEMBER =
      Pattern.compile(
          "(?i)\\b(?:remember|keep (?:that|this|it) in mind|note that|for the record|fyi|heads"
              + "[ -]up|for future reference|just so you know)\\b");

  /** Worded as a change of something known before. */
  private static final Pattern CHANGE =
      Pattern.compile(
          "(?i)\\b(?:moved|changed|switched|replaced|migrated|raised|lowered|renamed|no longer"
              + "|anymore|any more|no more|is gone|are gone|now|instead now|left|took"
              + " over|is owned by|since we|as of)\\b");

  /** Opens a standing instruction; "now" in it is no sign of a change. */
  private static final Pattern FROM_NOW_ON =
      Pattern.compile("(?i)\\b(?:from now on|going forward|in (?:the )?future|next time)\\b,?");

  /**
   * "Now" that says when, not that something changed: "right now", "for now"; after a verb saying
   * that something works or can be seen ("it builds now", "I can actually see it now"); or after
   * what the speaker just did ("I pasted it now"). And a change told as the time or the reason of
   * what the statement says ("never use the english text as the key, that bit us when copy
   * changed"): the statement itself changes nothing. "Left off" and "left over" leave nothing. A
   * "now" that opens the next topic ("now the problem: …", "now, …", "now for the tests") says
   * nothing changed either.
   */
  private static final Pattern NOT_A_CHANGE =
      Pattern.compile(
          "(?i)\\b(?:right|for|just|by) now\\b"
              + "|\\b(?:works?|worked|working|builds?|passes|passing|compiles|loads|renders|shows)"
              + " now\\b"
              + "|\\b(?:see|get|understand|read)(?: it| that| this| them)? now\\b"
              + "|\\bi (?:just )?\\w+ed (?:it|them|that|this) now\\b"
              + "|\\b(?:when|whenever|after|because|if|once) (?:the |our |a )?\\w+(?: \\w+)?"
              + " (?:changed|moved|switched)\\b"
              + "|\\bleft (?:off|over)\\b"
              + "|^(?:(?:ok(?:ay)?|so|and)[, ]+)?now\\b(?:,|(?=\\s+(?:for|to|on to|onto)\\b)"
              + "|\\s+the\\s+[^:.,;]{1,30}:)");

  /** Courtesy openers: a thanks or a "great" says nothing to keep. */
  private static final Set<String> COURTESY =
      Set.of(
          "thanks",
          "thank",
          "thx",
          "ty",
          "cheers",
          "nice",
          "cool",
          "awesome",
          "lovely",
          "great",
          "perfect",
          "brilliant",
          "wonderful");

  /** Says that it holds beyond the task at hand, whatever the verb. */
  private static final Pattern GENERAL =
      Pattern.compile(
          "(?i)\\b(?:always|never|ever|from now on|going forward|in future|in the future|by"
              + " default|whenever|each time|every time|when you|unless told|next time|in general"
              + "|as a rule|before you|after you|once you|if you ever)\\b");

  /** Says that it holds widely; general only for a verb of manner ("use … everywhere"). */
  private static final Pattern WIDE =
      Pattern.compile(
          "(?i)\\b(?:every|everywhere|any|all new|for all|in this (?:repo|project|codebase|team)"
              + "|here|in our|across)\\b");

  /** Verbs that say how to work rather than what to do once. */
  private static final Set<String> MANNER_VERBS =
      Set.of(
          "use",
          "write",
          "spell",
          "answer",
          "reply",
          "respond",
          "keep",
          "put",
          "give",
          "format",
          "name",
          "call",
          "prefix",
          "talk",
          "speak",
          "stick",
          "prefer",
          "avoid",
          "skip",
          "ask",
          "run",
          "follow",
          "show",
          "explain",
          "address",
          "sign",
          "indent",
          "document");

  private static final Pattern PREFERENCE =
      Pattern.compile(
          "(?i)\\b(?:i|we) (?:(?:really|truly|just|much|strongly|so) )?(?:prefer|like|love|hate"
              + "|dislike|want|need you|can't stand|cannot stand|cant stand|don't like|dont like|do"
              + " not like|don't want|dont want|do not want|'d rather|would rather|'d like|would"
              + " like)\\b|\\bi'd rather\\b|\\bi'd like\\b|\\bprefer\\b|\\brather"
              + " than\\b|\\binstead of\\b|^(?:please )?(?:don't|do not|never|always|no)\\b"
              + "|\\buse\\b[^.]*\\b(?:not|never|instead of|over|rather than)\\b"
              + "|\\bplease\\b|\\bfor me\\b|\\bwith me\\b|\\bto me\\b|\\bmy (?:taste|preference)");

  /**
   * "No" and then only which thing was meant: "no, the other file", "no, the one in src/lib",
   * "nope, that one", "no I meant the tests in api/". A demonstrative or "the", at most two words
   * and at most one place ("in src/lib"), nothing more: a redirection said of this turn. A pointer
   * that goes on to say something ("no, the staging db is on 5433", "no, the integration tests go
   * in tests/integration") or to ask for a way of working ("no, the plain fixtures please") is not
   * one.
   */
  private static final Pattern POINTS_ELSEWHERE =
      Pattern.compile(
          "(?:no|nope|nah|not that one)[,.!…]*\\s+(?:i meant\\s+|i mean\\s+)?"
              + "(?:the|that|this|those|these)(?:\\s+[^\\s.!…]+){0,2}"
              + "(?:\\s+(?:in|under|from|on|at|of|inside)\\s+[^\\s!…]+)?[.!…]*");

  /**
   * A yes that lets the agent go on with the task at hand: "yes you can add the packages for this",
   * "sure, go ahead and bump it", "ok feel free to delete them".
   */
  private static final Pattern PERMISSION =
      Pattern.compile(
          "(?i)(?:yes|yeah|yep|yup|sure|ok(?:ay)?|fine)[,!.]*\\s+(?:you can|you may|feel free|go"
              + " ahead)\\b");

  /**
   * "Never" with a past form: what the user has not done ("never used any of them", "never tried
   * drift"), not an instruction never to do it.
   */
  private static final Pattern NEVER_DONE =
      Pattern.compile(
          "never (?:(?!embed\\b|shed\\b)\\w*[^e\\W]ed|been|done|seen|had|heard|met|known|got"
              + "|gotten|made|built|written|ridden|taken|given|gone)\\b");

  private static final Pattern DECISION =
      Pattern.compile(
          "(?i)\\b(?:decided|decision|decide|agreed|agree on|settled on|settle on|going with|go"
              + " with|went with|chose|chosen|choose|picked|opted|standardi[sz](?:ed|ing) on|we're"
              + " dropping|we are dropping|dropped|is out|are out|we'll use|we will use|let's use"
              + "|lets use|we're using|we are using|we're moving to|we are moving to|adopted"
              + "|approved)\\b");

  private static final Pattern WORKFLOW =
      Pattern.compile(
          "(?i)^(?:to [a-z]+\\b|in order to\\b|before (?:merging|releasing|deploying|pushing"
              + "|committing|you|we|a|any|each|every)\\b|after (?:merging|releasing|deploying)\\b"
              + "|for (?:a|an|the|every|each|any) [^,:]{1,60}[,:]|when (?:updating|deploying"
              + "|releasing|merging|adding|onboarding|upgrading)\\b|onboarding\\b|[a-z ]{3,40}:"
              + " (?:run|write|pull|push|renew|drop|edit|check|open|branch|bump|tag|merge|rebase"
              + "|squash|deploy|build|ship|cut|create|start|ping)\\b)"
              + "|\\bthen (?:run|push|tag|deploy|apply|post|merge|upload|publish|get|ask|wait)\\b");

  private static final Pattern CONVENTION =
      Pattern.compile(
          "(?i)\\b(?:convention|conventions|rule|rules|whenever|every time|each time|we keep|we name|we put|we always|we never"
              + "|we follow|follow|always|never|every|must|are named|is named|prefixed|suffixed"
              + "|naming|style|format(?:ted)? as|sit next to|go through|goes through|go in|goes"
              + " in|are kept|is kept)\\b");

  /** A report of something wrong: the bug's consolidation keeps it, with its fix. */
  private static final Pattern PROBLEM =
      Pattern.compile(
          "(?i)\\b(?:fails?|failing|failed|error|errors|exception|crash(?:es|ed)?|broken|breaks"
              + "|bug|typo|slow|slower|flaky|hangs?|freezes?|stuck|doesn't work|does not work"
              + "|isn't working|not working|wrong|cramped|leaks?|timeout|times out|dies|died|dying"
              + "|killed|nan|fell over|falls? over|fell apart|blew up|blows up"
              + "|undefined|null pointer|flickers?|pegs?|can't find|cannot find|missing|blank"
              + "|empty state|blurry|off by|warns?|warnings?|mismatch|keeps? getting|oom\\w*"
              + "|\\d{3}s|intermittent\\w*|randomly|sometimes|weird|strange|late|double|can't reach"
              + "|cannot reach|can't connect|cannot connect|unreachable|stopped working|stops? (?:answering"
              + "|responding|printing|working|updating|syncing)|won't (?:start|load|build|compile"
              + "|connect|open)|still (?:shows?|has|have|returns?|says|uses|points|fails?|happens)"
              + "|not found|can't see|cannot see|doesn't (?:work|show|load|save|update|match|find"
              + "|render|notice|pick up|trigger|fire|reload|refresh|arrive)|vanish(?:es|ed)?"
              + "|disappear(?:s|ed)?|does nothing|do nothing|did nothing|nothing happens|threw|throws"
              + "|violation|exceeded|never (?:recovers|finishes|completes|returns|loads|arrives?"
              + "|stops|shows? up|fires)|segfaults?|segfaulted|sigsegv|sigfpe|connection refused"
              + "|overlaps (?:the|my|our)|flashes (?:unstyled|white|blank|black|empty)|whining"
              + "|(?:lint|ci|build|pipeline|tests?|checks?|main|job|jobs|workflow)(?: \\w+)? (?:is|are"
              + "|went|turned|goes) red|(?:is|are|was|were|returns?|returned|gives?|gave|got|throws?)"
              + " (?:a|an) [45]\\d\\d|(?:returns?|returned|returning|gives?|gave|giving|got|getting"
              + "|throws?|threw|throwing|answers?|answered|responds?|responded) (?:with )?[45]\\d\\d\\b"
              + "(?! (?:rows|items|records|results|lines|entries|ms|bytes|users|objects|elements))"
              + "|\\b[45]\\d\\d(?:ing|ed)|(?:takes|sits?|sat|stays?|stayed|spins?|waits?|waited|queued"
              + "|pending|loads|loading|hangs?) (?:\\S+ ){0,4}forever|nothing (?:runs|works|loads"
              + "|shows|renders|starts|gets (?:scheduled|picked up|sent|saved))"
              + "|(?:goes|went|just) silent|even (?:on|when|though|after|with|if)"
              + "|got (?:a |another )?(?:bug )?reports?|reports? (?:that|from (?:a|an|some|two|users?"
              + "|customers?|members?))|(?:yell|scream|shout|moan)(?:s|ing)"
              + "|(?:users?|customers?|members?|people) (?:report|complain)"
              + "(?:s|ed|ing)?|complain(?:s|ed|ing)? (?:that|about)|complaints? (?:that|about|from)"
              + "|how (?:is|was) (?:that|this|it) (?:even )?possible|how can (?:that|this) (?:be|happen)"
              + "|(?:gives?|gave|returns?|returned|comes? back|came back|downloads?|downloaded"
              + "|produces?|produced|exports?|exported)(?: an?)? empty|the problem(?=\\s*:)"
              + "|the problem is|wtf|wth|what the (?:hell|heck)|(?:gets?|got|is|are|was|were) blocked"
              + "|blocked by)\\b");

  /** How a request opens when it asks at once: "can you …", "I need you to …", "let's …". */
  private static final String ASKS_AT_ONCE =
      "(?:(?:please|pls|kindly)\\s+)?(?:can|could|would|will) you\\b|(?:i need you to|i want you"
          + " to|i'd like you to|let's|lets|go ahead)\\b";

  /** A request: asks the agent to do something now. */
  private static final Pattern ASKS =
      Pattern.compile(
          "(?i)^(?:"
              + ASKS_AT_ONCE
              + ")|^(?:please|pls)\\s+\\w+"
              + "|^need (?!you\\b|i\\b|we\\b)\\S|(?<![\\w-])(?:pls|plz)(?![\\w-])|,\\s*(?:can"
              + " you|could you|please)\\b|\\b(?:fix|make|take a look|look into|check) (?:it|this"
              + "|that)\\b|\\bplease\\s*[.!]?$");

  /**
   * Where a request may follow a statement in one clause: after a comma or a dash, an optional
   * "and", "so", "then" or "please", and a word followed by a word that is no number or label
   * ("port 3001" and "fix:" are no requests).
   */
  private static final Pattern TRAILING_REQUEST =
      Pattern.compile(
          "(?i)(?:,|\\s[—–-])\\s+(?:(?:and|so|then|pls|please|just)\\s+)?([a-z]+)\\s+(?![\\d:])\\w");

  /**
   * A request to change what the statement before it described: "the handler returns a bare string,
   * make it match the rest" reports the state the task ends, not a fact to keep.
   */
  private static final Pattern CHANGES_IT =
      Pattern.compile(
          "(?i)(?:(?:and|so|then|pls|please|just)\\s+)?(?:fix|make|change|update|correct|refactor"
              + "|rewrite|remove|delete|drop|clean|tidy|simplify|improve|shorten|rename|move|replace"
              + "|revert|undo)\\s+(?:it|this|that|them|these|those)\\b");

  /** A condition: what follows it is the step to take ("if the DAG fails, check the bucket"). */
  private static final Pattern CONDITIONAL =
      Pattern.compile("\\b(?:if|when|whenever|before|after|once|unless|until)\\b");

  /** Says that what it tells holds for the moment: "I just pulled main", "it's currently red". */
  private static final Pattern MOMENT =
      Pattern.compile("\\b(?:just|currently|right now|at the moment)\\b");

  /** Verbs a request opens with. */
  private static final Set<String> REQUEST_VERBS =
      Set.of(
          "add",
          "fix",
          "make",
          "create",
          "update",
          "remove",
          "implement",
          "write",
          "run",
          "change",
          "refactor",
          "rename",
          "move",
          "delete",
          "check",
          "look",
          "find",
          "show",
          "explain",
          "help",
          "try",
          "test",
          "build",
          "open",
          "read",
          "edit",
          "debug",
          "format",
          "split",
          "extract",
          "tidy",
          "clean",
          "profile",
          "shorten",
          "lengthen",
          "bump",
          "upgrade",
          "install",
          "deploy",
          "review",
          "investigate",
          "set",
          "setup",
          "configure",
          "generate",
          "draft",
          "summarise",
          "summarize",
          "list",
          "give",
          "tell",
          "describe",
          "compare",
          "convert",
          "port",
          "migrate",
          "replace",
          "translate",
          "sort",
          "merge",
          "rebase",
          "commit",
          "push",
          "pull",
          "revert",
          "undo",
          "redo",
          "start",
          "stop",
          "restart",
          "kill",
          "print",
          "send",
          "reply",
          "answer",
          "use",
          "spell",
          "keep",
          "put",
          "do",
          "go",
          "get",
          "ship",
          "release",
          "publish",
          "document",
          "comment",
          "simplify",
          "optimize",
          "optimise",
          "speed",
          "inline",
          "wrap",
          "drop",
          "raise",
          "lower",
          "increase",
          "decrease",
          "reduce",
          "handle",
          "support",
          "allow",
          "prevent",
          "avoid",
          "ensure",
          "verify",
          "validate",
          "clarify",
          "polish",
          "improve",
          "patch",
          "hook",
          "wire",
          "connect",
          "plug",
          "cache",
          "log",
          "track",
          "measure",
          "benchmark",
          "mock",
          "stub",
          "rewrite",
          "annotate",
          "type",
          "lint",
          "audit",
          "scan",
          "search",
          "grep",
          "see",
          "have",
          "ignore",
          "touch",
          "disable",
          "enable",
          "bypass",
          "suppress",
          "hardcode",
          "leave",
          "modify",
          "swallow",
          "expose",
          "hide",
          "reuse",
          "dump",
          "fetch",
          "grab",
          "paste",
          "copy",
          "download",
          "upload",
          "scaffold",
          "bootstrap",
          "rerun",
          "retry");

  /** Whose first person speaks of themselves: a personal fact. */
  private static final Pattern PERSONAL =
      Pattern.compile(
          "(?i)^(?:i'm|i am|i've|i have|i live|i work|i speak|i was|i'll be|i will be|i moved|i"
              + " go|i usually|i only|i never|i always|i can't|i cannot|i don't|i do not|my|mine"
              + "|i get|i take|i use|i run|i own)\\b");

  /** The most subject terms a statement names as concepts. */
  static final int MAX_SUBJECTS = 6;

  /** "pnpm not npm", "Koin over Hilt", "polars instead of pandas", "from PagerDuty to Opsgenie". */
  private static final Pattern CONTRAST =
      Pattern.compile(
          "(?i)(?:\\bfrom\\s+([\\w.@#/:+-]+)\\s+to\\s+([\\w.@#/:+-]+))|(?:([\\w.@#/:+-]+),?\\s+(?:not"
              + "|over|instead of|rather than)\\s+([\\w.@#/:+-]+))");

  /**
   * A choice between alternatives: "pnpm, not npm", "tabs rather than spaces", "AssertJ instead of
   * Hamcrest". Said with a verb of manner ("use …", "write …") it is a standing choice, not a
   * one-off request. Stricter than {@link #CONTRAST}: "not" only after a comma or after code ("use
   * `make gen` not build_runner"; "so it does not block" chooses nothing), and no "over" ("run it
   * over the weekend").
   */
  private static final Pattern CHOICE =
      Pattern.compile(
          "(?i)[\\w.@#/:+`-]+(?:,\\s+not|(?<=`)\\s+not|,?\\s+(?:instead of|rather than))"
              + "\\s+[\\w.@#/:+`-]+");

  /**
   * A verb of style applied to a whole kind of thing: "keep functions under 40 lines", "spell
   * things the British way", "indent YAML files with two spaces". The object is a bare plural, so
   * no one thing of this task is meant; "keep the button blue", "name the file config.yaml" and
   * "write tests for the parser" (a verb of work, not of style) stay requests.
   */
  private static final Pattern STYLE_OF_ALL =
      Pattern.compile(
          "(?:please\\s+)?(?:keep|spell|stick to|indent|prefix|suffix|name|format|sign|word"
              + "|capitali[sz]e)\\s+(?:all\\s+|our\\s+|new\\s+)?(?:[a-z0-9-]+\\s+)?"
              + "(?:things|[a-z][a-z-]{2,}[^s\\W]s)\\b");

  /** What opens a standing instruction when a verb follows: "never push …", "don't run …". */
  private static final List<String> INSTRUCTION_LEADS =
      List.of("always ", "never ", "don't ", "do not ", "dont ");

  private Statements() {}

  /**
   * What a statement is about, as concept tags: the two sides of a contrast ("pnpm", "npm" of "we
   * use pnpm not npm"), then the words that name things rather than say something: technologies,
   * words with a digit, an inner capital or a joining mark ({@code SHOP_}, {@code 5433}, {@code
   * feature/JIRA-123}, {@code #7C3AED}). Lower-case, at most {@value #MAX_SUBJECTS}.
   */
  static List<String> subjects(String text) {
    java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
    Matcher m = CONTRAST.matcher(TextCuts.head(text, Wording.WINDOW));
    while (m.find()) {
      for (int g = 1; g <= 4; g++) {
        String side = m.group(g);
        if (side != null && !FILLER.contains(side.toLowerCase(Locale.ROOT))) {
          out.add(trim(side).toLowerCase(Locale.ROOT));
        }
      }
    }
    String[] words = TextCuts.flat(text, Wording.WINDOW).split(" ");
    for (int i = 0; i < words.length; i++) {
      String w = trim(words[i]);
      if (w.length() < 2) {
        continue;
      }
      String lower = w.toLowerCase(Locale.ROOT);
      boolean named =
          Concepts.TECHNOLOGIES.contains(lower)
              || w.chars().anyMatch(Character::isDigit)
              || i > 0 && w.chars().skip(0).anyMatch(Character::isUpperCase)
              || w.chars()
                  .skip(1)
                  .anyMatch(
                      c ->
                          c == '_' || c == '/' || c == '.' || c == '#' || c == '@' || c == ':'
                              || c == '-');
      if (named && !FILLER.contains(lower)) {
        out.add(lower);
      }
    }
    List<String> all = new ArrayList<>();
    for (String t : out) {
      if (!t.isEmpty() && all.size() < MAX_SUBJECTS) {
        all.add(TextCuts.head(t, dev.memhook.api.MemoryDraft.MAX_CONCEPT));
      }
    }
    return all;
  }

  /** Words a contrast or a capital letter may catch that name nothing. */
  private static final Set<String> FILLER =
      Set.of(
          "i", "the", "a", "an", "it", "this", "that", "we", "you", "one", "ones", "plain", "just",
          "only", "and", "or", "is", "are", "be", "use", "do", "to", "in", "on");

  private static String trim(String word) {
    int s = 0;
    int e = word.length();
    while (s < e && "([{\"'`,;:".indexOf(word.charAt(s)) >= 0) {
      s++;
    }
    while (e > s && ".,;:!?)]}\"'`".indexOf(word.charAt(e - 1)) >= 0) {
      e--;
    }
    return word.substring(s, e);
  }

  /** The standing statements of {@code said}, a user's message, in the order they were said. */
  static List<Statement> of(String said) {
    List<Statement> out = new ArrayList<>();
    boolean retracted = false;
    boolean afterPreference = false; // whether the clause before made the last preference of out
    List<String> sentences =
        TextCuts.sentences(PastedOutput.without(TextCuts.head(said, Spoken.WINDOW)), Spoken.WINDOW);
    List<String> all = new ArrayList<>();
    sentences.forEach(sentence -> all.addAll(clauses(sentence)));
    List<Statement> own = new ArrayList<>(all.size()); // what each clause states on its own
    all.forEach(clause -> own.add(statement(clause)));
    for (int i = 0; i < all.size(); i++) {
      String clause = all.get(i);
      int end = rejectionEnd(all, own, i);
      if (end >= i) {
        // "ugh no CBVs please. plain function-based views with a decorator or two": what is ruled
        // out and what the user wants in its place are one preference; alone, the second reads
        // as a request of the moment and the first names only what not to do
        StringBuilder joined = new StringBuilder();
        for (int j = i; j <= end; j++) {
          String part = HESITATION_ALL.matcher(all.get(j).strip()).replaceFirst("");
          joined.append(j == i ? "" : " ").append(TextCuts.asSentence(capitalised(part)));
        }
        out.add(
            new Statement(
                MemoryType.PREFERENCE,
                joined.toString(),
                retracted || own.get(i) != null && own.get(i).correction()));
        afterPreference = true;
        i = end;
        continue;
      }
      int asks = i - 1;
      while (asks >= 0 && CONNECTIVE_ONLY.matcher(all.get(asks).strip()).matches()) {
        asks--; // "… instead. and fyi that's …" leaves a bare "and" between the two
      }
      if (asks >= 0 && own.get(asks) == null && madeForGood(all.get(asks), clause)) {
        // "move it to half past four utc instead. and that's the official time from now on":
        // the request is what holds from now on, and alone would read as a task of the moment
        String asked = TextCuts.asSentence(capitalised(all.get(asks).strip()));
        String kept = CONNECTIVE.matcher(clause.strip()).replaceFirst("");
        out.add(
            new Statement(
                MemoryType.DECISION, asked + " " + TextCuts.asSentence(capitalised(kept)), true));
        afterPreference = false;
        continue;
      }
      if (afterPreference && INSTEAD.matcher(clause).find()) {
        // "I don't want exceptions in the packer code. Return std::expected instead.": the
        // alternative completes the preference before it, and alone would read as a task
        Statement before = out.remove(out.size() - 1);
        out.add(
            new Statement(
                before.type(),
                TextCuts.asSentence(before.text()) + " " + capitalised(clause.strip()),
                before.correction()));
        continue;
      }
      Statement s = own.get(i);
      if (s == null) {
        s = aside(clause); // "scaffold the package (for new packages I'd rather use vitest)"
      }
      afterPreference = false;
      if (RETRACTS.matcher(clause.strip()).lookingAt()) {
        retracted = true;
        if (s == null || !s.correction()) {
          continue; // "wait no, I mixed it up": says only that what follows corrects
        }
      }
      if (s != null) {
        out.add(retracted && !s.correction() ? new Statement(s.type(), s.text(), true) : s);
        afterPreference = s.type() == MemoryType.PREFERENCE;
      }
    }
    if (sentences.stream()
        .anyMatch(
            x ->
                PROBLEM.matcher(mainClause(x.strip().toLowerCase(Locale.ROOT))).find()
                    && !opensARequest(x))) {
      // in a message that reports a problem (not one asking to fix it), a plain fact that names
      // nothing is the report's context ("started after last week's deploy, I think"), and so is
      // what is fine beside the problem ("works fine on mac/linux", "every other texture is
      // fine", "in JVM mode the same call returns full objects"), and so is a sentence that only
      // leads into what was pasted ("native build is done, BUT:"): not something a later session
      // should know
      out.removeIf(
          s ->
              (s.type() == MemoryType.FACT || s.type() == MemoryType.PATTERN)
                  && !s.correction()
                  && (s.type() == MemoryType.FACT && subjects(s.text()).isEmpty()
                      || FINE.matcher(s.text()).find()
                      || s.text().strip().endsWith(":")));
    }
    return out;
  }

  /**
   * Where a preference that opens by ruling something out ends in {@code clauses}, from {@code i}:
   * -1 if clause {@code i} rules nothing out, else the index of its last clause. A rejection ("no
   * CBVs please", "can we not use iostream", "eh no, not a whole component lib for one popup") runs
   * on into the next clause when that one says what to do instead ({@link #replaces}: "just use a
   * plain dialog element", "kotest assertions pls", "plain function-based views") and on through
   * clauses that go on telling how ("and put progress output on stderr"). Without a replacement it
   * stands alone only when it names what it rules out; "don't" and "never" are kept by {@link
   * #statement} then, and "not yet", "no worries" rule nothing out.
   */
  private static int rejectionEnd(List<String> clauses, List<Statement> own, int i) {
    Matcher m =
        REJECTION.matcher(clauses.get(i).strip().toLowerCase(Locale.ROOT).replace('’', '\''));
    if (!m.lookingAt()
        || NOT_RULED_OUT.contains(firstWord(m.group(2)))
        || POINTS_ELSEWHERE.matcher(m.group()).matches()) {
      return -1; // "not yet", "no, the other file"
    }
    if (i + 1 < clauses.size() && replaces(clauses.get(i + 1), own.get(i + 1))) {
      int end = i + 1;
      while (end + 1 < clauses.size() && end - i < 3 && goesOnTelling(clauses.get(end + 1))) {
        end++;
      }
      return end;
    }
    boolean instructionLead = INSTRUCTION_REJECTION.matcher(m.group(1)).find();
    return !instructionLead && !subjects(m.group(2)).isEmpty() && own.get(i) == null ? i : -1;
  }

  /**
   * Opens a clause that rules something out: after interjections, "no", "nah", "not", "can we not",
   * "let's not", "rather not", "don't", "never" and the like, then what is ruled out (group 2; not
   * "just …": "can we not just use the helper?" proposes it).
   */
  private static final Pattern REJECTION =
      Pattern.compile(
          "^(?:(?:ugh|eh|meh|h+m+|ah+|oh|ok(?:ay)?|well|yeah|nah|nope|no)[,!.…]*\\s+)*"
              + "((?:please |pls )?(?:no|nah|not|(?:can|could) (?:we|you) not|let'?s not"
              + "|(?:i'd|we'd|i would|we would)? ?rather not|don't|dont|do not|never))\\s+"
              + "(?!just\\b)(\\S.*)");

  /**
   * The leads of {@link #REJECTION} that open an instruction ("don't", "never"): {@link #statement}
   * keeps such a clause on its own.
   */
  private static final Pattern INSTRUCTION_REJECTION =
      Pattern.compile("(?:don't|dont|do not|never)$");

  /** First words after "no" or "not" that rule nothing out: "not yet", "no worries", "no idea". */
  private static final Set<String> NOT_RULED_OUT =
      Set.of(
          ("yet now sure really quite exactly worries worry idea problem problems thanks that this"
                  + " it it's so too bad much necessarily today need rush way big more matter clue"
                  + " doubt one ok okay right correct what i we you until unless if when sorry longer"
                  + " changes change")
              .split(" "));

  /**
   * Whether {@code clause}, after a rejection, says what to do instead: it opens with a verb of
   * manner ("just use a plain dialog element"), or it is no standing statement of its own nor a
   * task ("add the column") nor a question, and names something ("kotest assertions pls, x shouldBe
   * y reads better", "plain function-based views with a decorator or two").
   */
  private static boolean replaces(String clause, Statement own) {
    String lower =
        HESITATION_ALL
            .matcher(clause.strip().toLowerCase(Locale.ROOT).replace('’', '\''))
            .replaceFirst("");
    if (lower.isEmpty() || lower.endsWith("?") || NEW_THING.matcher(lower).lookingAt()) {
      return false; // "Anyway, format the terraform files": a new subject
    }
    String first = firstWord(lower);
    if (MANNER_VERBS.contains(first)) {
      return true;
    }
    if (REQUEST_VERBS.contains(first) && !nounPhraseSubject(lower)
        || REJECTION.matcher(lower).lookingAt()) {
      return false;
    }
    return own == null ? !subjects(clause).isEmpty() : own.type() == MemoryType.PREFERENCE;
  }

  /**
   * Whether {@code clause} goes on telling how to work after a preference: a verb of manner, alone
   * or after "and" or "plus" ("and put progress output on stderr", "keep it dependency free").
   */
  private static boolean goesOnTelling(String clause) {
    String lower = clause.strip().toLowerCase(Locale.ROOT);
    lower = lower.replaceFirst("^(?:and|plus)\\s+", "");
    return !lower.endsWith("?") && MANNER_VERBS.contains(firstWord(lower));
  }

  /** Opens a new subject: "anyway, …", "also, …", "btw …", "oh and …", "now, …". */
  private static final Pattern NEW_THING =
      Pattern.compile("(?:anyway|also|btw|by the way|oh,? and|and also|ps|now|separately)\\b");

  /** Interjections and reply words before a clause, however many: "ugh, ok just use …". */
  private static final Pattern HESITATION_ALL =
      Pattern.compile("(?i)^(?:(?:" + INTERJECTIONS + ")\\b[,.!…]*\\s+)+");

  /** {@code text} with its first character in upper case. */
  private static String capitalised(String text) {
    return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
  }

  /**
   * The statement a parenthesised aside of at least {@value FactAdmission#MIN_WORDS} words makes
   * inside a clause that makes none itself, or null: a request may carry a rule in brackets.
   */
  private static Statement aside(String clause) {
    Matcher m = BRACKETED.matcher(clause);
    while (m.find()) {
      String inside = m.group(1).strip();
      if (inside.split("\\s+").length >= FactAdmission.MIN_WORDS) {
        Statement s = statement(inside);
        if (s != null) {
          return s;
        }
      }
    }
    return null;
  }

  private static final Pattern BRACKETED = Pattern.compile("\\(([^()]{8,400})\\)");

  /** The clauses of one sentence: asides and parenthesised notes apart. */
  static List<String> clauses(String sentence) {
    List<String> out = new ArrayList<>();
    String rest = sentence;
    Matcher paren = PAREN.matcher(rest);
    StringBuilder outside = new StringBuilder();
    int last = 0;
    while (paren.find()) {
      outside.append(rest, last, paren.start()).append(' ');
      out.add(paren.group(1));
      last = paren.end();
    }
    outside.append(rest.substring(last));
    List<String> parts = new ArrayList<>();
    Matcher aside = ASIDE.matcher(outside);
    int from = 0;
    while (aside.find()) {
      parts.add(outside.substring(from, aside.start()));
      from = aside.end();
    }
    parts.add(outside.substring(from));
    List<String> split = new ArrayList<>();
    for (String part : firstPersonClauses(parts)) {
      String held = null;
      for (String piece : part.split(";\\s+")) {
        if (held != null && continuesInstruction(held, piece)) {
          held = held + "; " + piece;
          continue;
        }
        if (held != null) {
          split.add(held);
        }
        held = piece;
      }
      split.add(held);
    }
    out.addAll(0, split);
    List<String> cleaned = new ArrayList<>();
    for (String p : out) {
      String s = p.strip();
      if (!s.isEmpty()) {
        cleaned.addAll(withoutTrailingRequest(s));
      }
    }
    return cleaned;
  }

  /**
   * {@code parts} that speak in the first person cut before each ", and I …" that goes on with
   * another ("I'm based in Auckland, so mornings suit me, and I don't work Wednesdays") and before
   * a ", so …" that asks something of the agent because of it ("I use a screen reader (NVDA), so no
   * tables in your answers please"): each says something of its own about the speaker, and a
   * problem word in one ("nothing gets scheduled") must not take the other with it. A part that
   * sets a condition stays whole, and so does one whose pieces would be too short to say anything
   * alone.
   */
  private static List<String> firstPersonClauses(List<String> parts) {
    List<String> out = new ArrayList<>();
    for (String part : parts) {
      String lower = part.strip().toLowerCase(Locale.ROOT);
      List<String> pieces =
          FIRST_PERSON.matcher(lower).find() && !CONDITIONAL.matcher(lower).find()
              ? List.of(AND_I.split(part))
              : List.of(part);
      if (pieces.stream()
          .allMatch(p -> p.strip().split("\\s+").length >= FactAdmission.MIN_WORDS)) {
        pieces.forEach(p -> out.addAll(soAsks(p)));
      } else {
        out.add(part); // "I use pnpm, and I never run npm here": too short to say it alone
      }
    }
    return out;
  }

  /**
   * {@code part} cut before a ", so …" that asks something of the agent, if it speaks in the first
   * person and each half is a statement on its own; else whole ("small thing: I'm colorblind
   * (deuteranopia), so don't …" stays one preference, since "I'm colorblind" alone says too little
   * to be kept, and the reason would be lost).
   */
  private static List<String> soAsks(String part) {
    if (!FIRST_PERSON.matcher(part.toLowerCase(Locale.ROOT)).find()) {
      return List.of(part);
    }
    List<String> pieces = List.of(SO_ASKS.split(part, 2));
    if (pieces.size() < 2 || pieces.stream().anyMatch(p -> statement(p) == null)) {
      return List.of(part);
    }
    return pieces;
  }

  /** The speaker as a subject: "I …", "I'm …". */
  private static final Pattern FIRST_PERSON = Pattern.compile("\\b(?:i|i'm|i’m|im)\\b");

  /** ", and I …": another first-person clause. */
  private static final Pattern AND_I = Pattern.compile("(?i),\\s+and\\s+(?=(?:i|i'm|i’m|im)\\b)");

  /**
   * ", so no …", ", so please …": what the speaker asks of the agent because of what they said ("I
   * use a screen reader, so no tables in your answers please").
   */
  private static final Pattern SO_ASKS =
      Pattern.compile("(?i),\\s+so\\s+(?=(?:no|don't|dont|do not|never|please|always|avoid)\\b)");

  /**
   * {@code clause} cut before a request that follows a statement in it: "the real one is
   * com.pebblepay.mobile, fix both platforms" says a fact, then asks for the task. The part before
   * the request must name something ({@link #subjects}), not itself open with a request verb, set
   * no condition and say nothing of the moment ("just", "currently"), so "I just pulled v2.3, check
   * the tests for me" stays one request and "if the DAG fails, check the bucket" one step; a
   * general request ("…, keep it that way always") or one that changes what the part before
   * described ("the handler returns a bare string, make it match") keeps the clause whole; a
   * procedure ("for a hotfix, branch off main, deploy …") is not cut, and a verb of manner after
   * the comma continues an instruction ("never use npm, use pnpm").
   */
  static List<String> withoutTrailingRequest(String clause) {
    if (WORKFLOW.matcher(clause.toLowerCase(Locale.ROOT)).find()) {
      return List.of(clause); // "for a hotfix, branch off main, deploy …": a procedure's steps
    }
    Matcher m = TRAILING_REQUEST.matcher(clause);
    while (m.find()) {
      String verb = m.group(1).toLowerCase(Locale.ROOT);
      if (!REQUEST_VERBS.contains(verb) || MANNER_VERBS.contains(verb)) {
        continue;
      }
      String head = clause.substring(0, m.start()).strip();
      String lowerHead = head.toLowerCase(Locale.ROOT);
      String tail = clause.substring(m.start()).replaceFirst("^[\\s,—–-]+", "");
      if (head.split("\\s+").length >= 3
          && !CONDITIONAL.matcher(lowerHead).find()
          && !MOMENT.matcher(lowerHead).find()
          && !GENERAL.matcher(tail).find()
          && !CHANGES_IT.matcher(tail).lookingAt()
          && !REQUEST_VERBS.contains(firstWord(lowerHead))
          && !ASKS.matcher(lowerHead).find()
          && afterInstructionLead(lowerHead) == null
          && !subjects(head).isEmpty()) {
        return List.of(head, tail);
      }
      return List.of(clause);
    }
    return List.of(clause);
  }

  /**
   * Whether {@code piece}, after a semicolon, says the other half of the instruction {@code
   * before}: "never use npm here; use pnpm" is one rule, and the "use pnpm" alone would read as a
   * request for now. Only a verb of manner after a lead that makes {@code before} an instruction
   * ("never", "don't", "always") joins; "never push to main; fix the login test" stays two.
   */
  private static boolean continuesInstruction(String before, String piece) {
    return afterInstructionLead(before.strip().toLowerCase(Locale.ROOT).replace('’', '\'')) != null
        && MANNER_VERBS.contains(firstWord(piece.strip().toLowerCase(Locale.ROOT)));
  }

  /**
   * What follows the lead of an instruction in {@code lower} ("never ", "don't ", "always ", after
   * an optional "please "), or null if it opens with none.
   */
  private static String afterInstructionLead(String lower) {
    String l = lower.startsWith("please ") ? lower.substring(7) : lower;
    for (String lead : INSTRUCTION_LEADS) {
      if (l.startsWith(lead)) {
        return l.substring(lead.length());
      }
    }
    return null;
  }

  /** The statement {@code clause} makes, or null if it is not a standing one. */
  static Statement statement(String clause) {
    String text = clause.strip();
    if (PERMISSION.matcher(text).lookingAt()) {
      return null; // "yes you can add the packages for this": leave for the task at hand
    }
    boolean remember = REMEMBER.matcher(text).find();
    boolean correction = false;
    for (int round = 0; round < 5; round++) {
      Matcher c = CORRECTS.matcher(text);
      if (c.find() && c.end() > 0 && c.end() < text.length()) {
        correction = true;
        text = text.substring(c.end());
        continue;
      }
      Matcher a = ANNOUNCE.matcher(text);
      if (a.find() && a.end() > 0) {
        if (a.end() >= text.length()) {
          return null; // "Quick one before standup.": it only announces
        }
        text = text.substring(a.end());
        continue;
      }
      Matcher h = HESITATION.matcher(text);
      if (h.lookingAt() && h.end() < text.length()) {
        text = text.substring(h.end());
        continue;
      }
      break;
    }
    text = TAIL.matcher(text).replaceFirst("").strip();
    if (text.isEmpty()) {
      return null;
    }
    text = capitalised(text);
    if (NUMBERED_STEPS.matcher(text).find()) {
      return new Statement(MemoryType.WORKFLOW, text, false); // the steps say what it is
    }
    Matcher polite = POLITE.matcher(text);
    if (polite.lookingAt()) {
      // "can you always use spaces", "can we please stick to spaces": the request it asks, read
      // by the rules an imperative is read by
      String asked = askedImperative(text, text.substring(polite.end()));
      if (asked == null) {
        return null; // "can you explain why the build fails?", "could we use Redis here?"
      }
      text = asked;
    }
    if (!admitted(text)
        || COURTESY.contains(firstWord(text.toLowerCase(Locale.ROOT)))
        || NoiseAdmission.acknowledgement(text)) {
      return null; // "Good enough for now.": courtesy words only
    }
    String lower = text.toLowerCase(Locale.ROOT).replace('’', '\'');
    if (lower.startsWith("maybe ") || lower.startsWith("perhaps ")) {
      return null; // "maybe we add a linter for that later": an idea, not yet a rule or a fact
    }
    if (POINTS_ELSEWHERE.matcher(lower).matches()) {
      return null; // "No, the other file": points the agent at something for this turn only
    }
    boolean experience = NEVER_DONE.matcher(lower).lookingAt();
    if (experience && subjects(text).isEmpty()) {
      return null; // "never used any of them": the user's experience, naming nothing
    }
    boolean negation =
        lower.startsWith("don't ")
            || lower.startsWith("dont ")
            || lower.startsWith("please dont ")
            || lower.startsWith("do not ")
            || lower.startsWith("never ") && !experience
            || lower.startsWith("please don't ")
            || lower.startsWith("please never ")
            || lower.startsWith("no ")
            || STOP_HABIT.matcher(lower).lookingAt();
    boolean request = request(lower);
    boolean manner = MANNER_VERBS.contains(firstWord(lower));
    boolean labelledRule = RULE_LABEL.matcher(lower).lookingAt();
    boolean general =
        labelledRule
            || GENERAL.matcher(lower).find()
            || LIKING.matcher(lower).find()
            || conditionalInstruction(lower)
            || manner
                && (WIDE.matcher(lower).find()
                    || CHOICE.matcher(lower).find()
                    || STYLE_OF_ALL.matcher(lower).lookingAt());
    boolean decision = DECISION.matcher(lower).find() || DECISION_LABEL.matcher(lower).lookingAt();
    if (request && !general && !negation && !remember && !proposesChoice(text, lower, decision)) {
      return null;
    }
    if (!remember
        && !correction
        && !decision
        && !instruction(lower, manner && general)
        && !WORKFLOW.matcher(lower).lookingAt() // "to try it locally, run X first to catch errors"
        && PROBLEM.matcher(mainClause(lower)).find()) {
      return null;
    }
    correction =
        correction
            || CHANGE
                    .matcher(
                        NOT_A_CHANGE
                            .matcher(FROM_NOW_ON.matcher(lower).replaceAll(""))
                            .replaceAll(""))
                    .find()
                && !request;
    MemoryType type =
        type(
            lower,
            request && !labelledRule || negation || conditionalInstruction(lower),
            decision,
            manner);
    if (type == MemoryType.FACT
        && !remember
        && ABOUT_WHAT_WAS_SAID.matcher(lower).lookingAt()
        && text.indexOf('`') < 0
        && text.split("\\s+").length <= MAX_REMARK_WORDS
        && subjects(text).isEmpty()) {
      return null; // "they asked that too", "feels like it's growing": only the moment's context
    }
    return new Statement(type, text, correction);
  }

  /**
   * A request worded as a question: "can you …", "could we please …", "would you …", "will you …"
   * (not "can we not …", which rules something out: {@link #REJECTION}). What it asks follows.
   */
  private static final Pattern POLITE =
      Pattern.compile(
          "(?i)^(?:(?:please|pls|kindly)\\s+)?(?:can|could|would|will)\\s+(?:you|u|we)\\s+"
              + "(?:(?:please|pls|plz|kindly)\\s+)?+(?!not\\b)(?=[a-z])");

  /** Says "please": a request, whatever mark ends it. */
  private static final Pattern PLEASE = Pattern.compile("(?i)\\b(?:please|pls|plz|kindly)\\b");

  /** A "please" that closes a request: "…, please?". */
  private static final Pattern CLOSING_PLEASE =
      Pattern.compile("(?i)[,\\s]+(?:please|pls|plz)\\s*$");

  /**
   * A question that a request asks as its object, within its first words: "explain why …", "check
   * whether …", "tell me what …", "have a look at why …" ("if you ever" is no question, and "what"
   * further on, "… because ruff is what we run", says what something is).
   */
  private static final Pattern EMBEDDED_QUESTION =
      Pattern.compile(
          "(?i)^(?:[\\w'-]+\\s+){1,4}?"
              + "(?=(?:why|what|how|where|which|who|whether|if(?! you\\b))\\b)");

  /**
   * The imperative a polite request ({@link #POLITE}) asks, {@code rest} being what follows its
   * opener, as "Please …", so that the rules of a request read it as they read "please always use
   * spaces": it stands only when it says that it holds beyond this task. Or null when it is a
   * question rather than a request: it ends with a question mark and says no "please" ("could we
   * use Redis here?", "would you use Kafka or SQS?"), or it asks for an answer ("can you explain
   * why the build fails"), unless its own words say it holds from now on ("can you always use
   * spaces?", "can you use spaces from now on?", "can you stop adding emojis?"), before any
   * question it embeds ("could you explain why the deploy always fails" says when it fails).
   */
  private static String askedImperative(String text, String rest) {
    String asked = rest.strip().replaceFirst("[?.!\\s]+$", "");
    asked = CLOSING_PLEASE.matcher(asked).replaceFirst("");
    String lower = asked.toLowerCase(Locale.ROOT).replace('’', '\'');
    Matcher embedded = EMBEDDED_QUESTION.matcher(lower);
    String head = embedded.lookingAt() ? lower.substring(0, embedded.end()) : lower;
    boolean question = text.strip().endsWith("?") && !PLEASE.matcher(text).find();
    if ((question || head.length() < lower.length())
        && !GENERAL.matcher(head).find()
        && !STOP_HABIT.matcher(lower).lookingAt()) {
      return null;
    }
    return "Please " + asked;
  }

  /** The most words of a remark about what was just said ({@link #ABOUT_WHAT_WAS_SAID}). */
  private static final int MAX_REMARK_WORDS = 8;

  /**
   * Opens a remark whose subject is what was just said or done: a pronoun ("they asked that too",
   * "it's the same for staging") or no subject at all ("feels like it's growing", "time to connect
   * to the hosts"). Such a remark, short, quoting no code and naming nothing, is the moment's
   * context, not a fact to keep.
   */
  private static final Pattern ABOUT_WHAT_WAS_SAID =
      Pattern.compile(
          "(?:they|it|it's|its|that|that's|this|these|those|he|she|feels|seems|looks|sounds|time"
              + " to)\\b");

  /**
   * An exception to a rule, up to the next comma, semicolon or dash: "unless …", "except when …",
   * "except if …", "except for …" (not Python's "except ValueError").
   */
  private static final Pattern EXCEPTION =
      Pattern.compile(
          "(?i)\\b(?:unless|except (?:when|whenever|if|where|for|while|during|on|in|after|before))"
              + "\\b[^,;—–]*");

  /**
   * Says that something works: "the checkout page works", "it runs fine", "the tests pass". With an
   * exception after it ("… works unless the cart has a weird discount code") it reports when it
   * does not.
   */
  private static final Pattern WORKS =
      Pattern.compile("\\b(?:works?|worked|working|loads|passes|renders|compiles|succeeds)\\b");

  /**
   * {@code lower} without the exceptions it makes to its rule ({@link #EXCEPTION}), when what is
   * left still says something on its own ({@link FactAdmission}) and does not say that something
   * works ({@link #WORKS}, {@link #FINE}): "one line is plenty unless the function does something
   * genuinely weird" is a rule with an exception, and the problem word qualifies the rule rather
   * than reporting a problem. "The export fails unless I restart the worker" still reports one in
   * its main clause; "the checkout page works unless the cart has a weird discount code" and "login
   * works unless …" (two words) are read whole.
   */
  private static String mainClause(String lower) {
    Matcher m = EXCEPTION.matcher(lower);
    if (!m.find()) {
      return lower;
    }
    String main =
        m.replaceAll(" ").replaceAll("\\s+([,;.!?])", "$1").replaceAll("^[\\s,;—–-]+", "").strip();
    return FactAdmission.admits(main) && !WORKS.matcher(main).find() && !FINE.matcher(main).find()
        ? main
        : lower;
  }

  /**
   * Whether {@code sentence} reports something wrong ("the dashboard freezes", "tests fail on CI
   * only"): what a bug's consolidation keeps as the user's report of it.
   */
  static boolean reportsProblem(String sentence) {
    return PROBLEM.matcher(sentence).find();
  }

  /**
   * Whether {@code sentence} opens by asking for work ("make the empty state friendlier", "can you
   * fix the login?") rather than telling what is wrong ("the login is broken, fix it").
   */
  static boolean opensARequest(String sentence) {
    String lower = sentence.strip().toLowerCase(Locale.ROOT).replace('’', '\'');
    return REQUEST_VERBS.contains(firstWord(lower)) && !nounPhraseSubject(lower)
        || ASKS_FIRST.matcher(lower).lookingAt();
  }

  /** The openers of {@link #ASKS} that ask at once. */
  private static final Pattern ASKS_FIRST = Pattern.compile(ASKS_AT_ONCE);

  /**
   * Whether {@code lower} proposes a choice of something named, as a decision: "let's go with Redis
   * for the rate limiter". "Let's" reads as a request, but with a decision's wording and a named
   * subject it settles something; "let's go with the second option" names nothing and stays a
   * request of the moment.
   */
  private static boolean proposesChoice(String text, String lower, boolean decision) {
    return decision
        && (lower.startsWith("let's ") || lower.startsWith("lets "))
        && !subjects(text).isEmpty();
  }

  /**
   * Whether {@code lower} tells how to work from now on: a verb of manner said generally ({@code
   * generalManner}: "use pnpm, never npm"), or always, never or don't followed by a verb ("never
   * ignore a failing test", "don't run the e2e suite locally, it is flaky"). Such a clause states a
   * rule even when it names a problem, as its reason or its subject; "don't worry, it fails
   * sometimes" has no verb after its negation and stays a report.
   */
  private static boolean instruction(String lower, boolean generalManner) {
    if (generalManner || conditionalInstruction(lower)) {
      return true;
    }
    String rest = afterInstructionLead(lower);
    if (rest == null) {
      return false;
    }
    String verb = firstWord(rest);
    return MANNER_VERBS.contains(verb) || REQUEST_VERBS.contains(verb);
  }

  /**
   * Whether the first word of {@code lower}, a request verb, is a noun of the subject instead:
   * "mock server runs on my desktop", "test data lives in fixtures", where a verb of being follows
   * within two words, or within three when the words between are no determiner or pronoun ("commit
   * msgs here are conventional commits", not "check the db is up" nor "check if it is running"), or
   * "of" follows it ("deploy of the shared stack blows up").
   */
  private static boolean nounPhraseSubject(String lower) {
    String[] words = lower.strip().split("\\s+", 5);
    if (words.length > 2 && words[1].equals("of")) {
      return true; // "deploy of the shared stack blows up": no request takes "of" after its verb
    }
    for (int i = 1; i < Math.min(4, words.length); i++) {
      if ((COPULAS.contains(words[i]) || STATE_VERBS.contains(words[i]))
          && (i < 3
              || !NOT_IN_A_SUBJECT.contains(words[1]) && !NOT_IN_A_SUBJECT.contains(words[2]))) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether {@code clause} makes the request {@code before} it hold from now on: it refers back to
   * it ("that's", "this is", "keep it", "make that") and says it lasts ("from now on", "going
   * forward", "the official …", "for good", "the new default").
   */
  private static boolean madeForGood(String before, String clause) {
    String lower = clause.strip().toLowerCase(Locale.ROOT).replace('’', '\'');
    lower = CONNECTIVE.matcher(lower).replaceFirst("");
    lower = lower.replaceFirst("^(?:fyi|btw)[,:]?\\s+", "");
    return REFERS_BACK.matcher(lower).lookingAt()
        && FOR_GOOD.matcher(lower).find()
        && request(before.strip().toLowerCase(Locale.ROOT).replace('’', '\''));
  }

  /**
   * Whether {@code statement}, one of {@link #of}, is a request made to hold from now on ("Move it
   * to half past four utc instead. That's the official time from now on."): what the agent then did
   * says the value the user's words only point at.
   */
  static boolean askedForGood(Statement statement) {
    String lower = statement.text().toLowerCase(Locale.ROOT);
    return statement.type() == MemoryType.DECISION
        && FOR_GOOD.matcher(lower).find()
        && opensARequest(lower);
  }

  /** A clause that is only a connective: "and", "also", "so". */
  private static final Pattern CONNECTIVE_ONLY =
      Pattern.compile("(?i)(?:and|also|plus|so|then|oh and)[,.]?");

  /** Opens by referring to what was just asked: "that's", "this is", "keep it", "make that". */
  private static final Pattern REFERS_BACK =
      Pattern.compile(
          "(?:that'?s|thats|that is|this is|it'?s|(?:keep|make|leave) (?:it|that|this))\\b");

  /** Says that something lasts: "from now on", "going forward", "official", "for good". */
  private static final Pattern FOR_GOOD =
      Pattern.compile(
          "\\b(?:from now on|going forward|official|for good|permanent(?:ly)?|the (?:new )?(?:default"
              + "|standard|rule))\\b");

  /** A connective before a clause: "also", "and", "plus", "oh and". */
  private static final Pattern CONNECTIVE =
      Pattern.compile("(?i)^(?:(?:oh,? )?and also|oh,? and|also|and|plus|then)[,]?\\s+");

  /**
   * A topic before a colon, at most three words and no verb of being: "labels: ", "ci: ", "auth
   * module - "; not "the order is: ", which leads into what it tells.
   */
  private static final Pattern TOPIC =
      Pattern.compile(
          "^(?!(?:\\S+ ){0,2}(?:is|are|was|were|be)\\b)[a-z][\\w/.-]*(?: [\\w/.-]+){0,2}"
              + "\\s*(?::|\\s-)\\s+");

  /** Words that make the words after a request verb its object or clause, not a subject. */
  private static final Set<String> NOT_IN_A_SUBJECT =
      Set.of(
          ("the a an this that these those it its my our your their if whether why how what when"
                  + " where who which sure there all every each any some")
              .split(" "));

  /**
   * Whether {@code part} opens with a word used as a label or a count rather than a verb: "fix:" in
   * "(feat:, fix:, chore:)", "port 3001" in "192.168.1.40, port 3001".
   */
  private static final Set<String> STATE_VERBS =
      Set.of(
          "has",
          "have",
          "takes",
          "needs",
          "sits",
          "returns",
          "expects",
          "gets",
          "goes",
          "stays",
          // what a thing does wrong: "build fails on the new agent", "test keeps timing out"
          "fails",
          "failed",
          "crashes",
          "crashed",
          "breaks",
          "broke",
          "hangs",
          "dies",
          "died",
          "errors",
          "throws",
          "threw",
          "keeps",
          "stopped",
          "doesn't",
          "won't",
          "isn't",
          "didn't");

  private static boolean labelOrCount(String part) {
    String[] words = part.strip().split("\\s+", 3);
    return words[0].endsWith(":")
        || words.length > 1 && !words[1].isEmpty() && Character.isDigit(words[1].charAt(0));
  }

  /**
   * Whether {@code lower} is an instruction under a condition: "when you return errors wrap them
   * with fmt.Errorf", "before you tell me something's done, run the linter". After the condition's
   * own verb comes a verb that tells what to do (not one with a subject of its own: "when you run
   * the tests they fail" is a report).
   */
  private static boolean conditionalInstruction(String lower) {
    Matcher m = CONDITION.matcher(lower);
    if (!m.lookingAt()) {
      return false;
    }
    String[] words = lower.substring(m.end()).split("[\\s,—–-]+");
    for (int i = 1; i < words.length; i++) {
      String w = FactAdmission.stripPunctuation(words[i]);
      String before = FactAdmission.stripPunctuation(words[i - 1]);
      if ((REQUEST_VERBS.contains(w) || MANNER_VERBS.contains(w) || INSTRUCTION_WORDS.contains(w))
          && !NO_ORDER_AFTER.contains(before)) {
        return true;
      }
    }
    return false;
  }

  /** Opens a condition for an instruction: "when you", "before we", "whenever you". */
  private static final Pattern CONDITION =
      Pattern.compile(
          "(?:when|whenever|before|after|once|if) (?:(?:you|we)(?: ever)?|there's|there is"
              + "|there are|it's|it is) ");

  private static final Set<String> INSTRUCTION_WORDS =
      Set.of("don't", "dont", "never", "always", "please");

  /**
   * Words after which a verb is no order: its subject ("they fail"), or a preposition or a
   * conjunction that makes it a noun or part of a phrase ("with make gen", "and build").
   */
  private static final Set<String> NO_ORDER_AFTER =
      Set.of(
          "i", "you", "we", "they", "it", "he", "she", "to", "that", "which", "who", "tests",
          "with", "by", "for", "of", "in", "on", "at", "from", "and", "or", "the", "a", "an");

  private static String firstWord(String lower) {
    String l = lower.startsWith("please ") ? lower.substring(7) : lower;
    int space = l.indexOf(' ');
    return FactAdmission.stripPunctuation(space < 0 ? l : l.substring(0, space));
  }

  /**
   * Whether {@link FactAdmission} admits {@code text}, except that a clause opening with "when" and
   * not ending with a question mark states a condition ("When you show me commands, …"), not a
   * question.
   */
  private static boolean admitted(String text) {
    var rejection = FactAdmission.rejection(text);
    if (rejection.isEmpty()) {
      return true;
    }
    String lower = text.toLowerCase(Locale.ROOT);
    int colon = lower.indexOf(": ");
    if (rejection.get() == FactAdmission.Rejection.QUESTION
        && !lower.endsWith("?")
        && colon > 0
        && FactAdmission.admits(text.substring(colon + 2))) {
      return true; // "how releases work here: nobody bumps versions by hand"
    }
    if (rejection.get() == FactAdmission.Rejection.FRAGMENT
        && (namesAValue(text) || DECISION_LABEL.matcher(text).lookingAt())) {
      return true;
    }
    return rejection.get() == FactAdmission.Rejection.QUESTION
        && !lower.endsWith("?")
        && (lower.startsWith("when ") || lower.startsWith("whenever "))
        && FactAdmission.admits("It holds " + text.substring(text.indexOf(' ') + 1));
  }

  /**
   * Whether {@code text} is a three-word statement of a value: a subject, a verb such as "is" and
   * something that names a thing ("staging is eu-central-1", "minimum is 1.22"). Shorter than
   * {@link FactAdmission#MIN_WORDS}, it still says all a later session needs.
   */
  private static boolean namesAValue(String text) {
    String[] words = TextCuts.flat(text, Wording.WINDOW).toLowerCase(Locale.ROOT).split(" ");
    if (words.length != 3 || !COPULAS.contains(words[1])) {
      return false;
    }
    String value = trim(words[2]);
    return value.chars().anyMatch(Character::isDigit)
        || value.chars().skip(1).anyMatch(c -> c == '.' || c == '-' || c == '_' || c == '/')
        || Concepts.TECHNOLOGIES.contains(value);
  }

  private static final Set<String> COPULAS =
      Set.of("is", "are", "was", "uses", "runs", "lives", "listens", "means", "equals");

  private static boolean request(String said) {
    if (WORKFLOW.matcher(said).find() && !ASKS.matcher(said).find()) {
      return false; // "To release, bump the version…": a procedure told in imperatives
    }
    // "also allow PNG for now", "labels: add a format field": a request after a connective or
    // under a topic
    String lower = CONNECTIVE.matcher(said).replaceFirst("");
    Matcher topic = TOPIC.matcher(lower);
    if (topic.lookingAt()) {
      String rest = lower.substring(topic.end());
      if (REQUEST_VERBS.contains(firstWord(rest)) && !nounPhraseSubject(rest)) {
        return true;
      }
    }
    if (ASKS.matcher(lower).find()) {
      return true;
    }
    Matcher need = NEEDS.matcher(lower);
    if (need.lookingAt()
        && (TASK_VERBS.contains(need.group(1) != null ? need.group(1) : need.group(2))
            || SOON.matcher(lower).find())) {
      return true; // "we should add experiment tracking", "we need to ship it today"
    }
    if (REQUEST_VERBS.contains(firstWord(lower)) && !nounPhraseSubject(lower)) {
      return true;
    }
    // "I just cloned this, check the setup for me": a request after a comma
    for (String part : lower.split(",\\s+(?:and\\s+|then\\s+)?")) {
      if (part != lower
          && REQUEST_VERBS.contains(firstWord(part))
          && !part.startsWith("use ")
          && !labelOrCount(part)
          && !nounPhraseSubject(part)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The type of a standing statement; {@code manner}: it opens with a verb of manner, so a clause
   * no other rule types is an instruction about how to work ("stick to 2-space indentation in YAML
   * files"), not a fact.
   */
  private static MemoryType type(
      String lower, boolean instruction, boolean decision, boolean manner) {
    if (FROM_NOW_ON.matcher(lower).lookingAt()) {
      return MemoryType.PREFERENCE; // "from now on, reply in German": an instruction for later
    }
    if (PREFERENCE.matcher(lower).find() && !decision || instruction && !decision) {
      return PERSONAL.matcher(lower).find() && !PREFERENCE.matcher(lower).find()
          ? MemoryType.FACT
          : MemoryType.PREFERENCE;
    }
    if (decision) {
      return MemoryType.DECISION;
    }
    if (WORKFLOW.matcher(lower).find()) {
      return MemoryType.WORKFLOW;
    }
    if (PERSONAL.matcher(lower).find()) {
      return MemoryType.FACT;
    }
    if (CONVENTION.matcher(lower).find()) {
      return MemoryType.PATTERN;
    }
    return manner ? MemoryType.PREFERENCE : MemoryType.FACT;
  }
}
