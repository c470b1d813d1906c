package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.MemoryType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StatementsTest {

  private static List<String> texts(String said) {
    return Statements.of(said).stream().map(Statements.Statement::text).toList();
  }

  private static Statements.Statement only(String said) {
    List<Statements.Statement> all = Statements.of(said);
    assertEquals(1, all.size(), said + " -> " + all);
    return all.get(0);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "we use yarn not npm here, remember that|PREFERENCE|We use yarn not npm here",
        "From now on reply in German.|PREFERENCE|From now on reply in German",
        "Never force-push to main.|PREFERENCE|Never force-push to main",
        "Don't add Co-authored-by lines to my commits.|PREFERENCE|Don't add Co-authored-by lines to my commits",
        "I'd rather have small pull requests than one big one.|PREFERENCE|I'd rather have small pull requests than one big one",
        "i can't stand semicolons in Kotlin files, leave them out always|PREFERENCE|I can't stand semicolons in Kotlin files, leave them out always",
        "We decided to put the search behind Meilisearch.|DECISION|We decided to put the search behind Meilisearch",
        "the architecture board approved event sourcing for the ledger|DECISION|The architecture board approved event sourcing for the ledger",
        "we settled on Renovate for dependency updates|DECISION|We settled on Renovate for dependency updates",
        "By convention, migrations are numbered with a timestamp prefix.|PATTERN|By convention, migrations are numbered with a timestamp prefix",
        "Our rule is that every public class gets a Javadoc sentence.|PATTERN|Our rule is that every public class gets a Javadoc sentence",
        "To cut a release, run make release and then push the tag.|WORKFLOW|To cut a release, run make release and then push the tag",
        "Before deploying, run the smoke tests against staging.|WORKFLOW|Before deploying, run the smoke tests against staging",
        "The message broker runs on rabbit.internal:5672.|FACT|The message broker runs on rabbit.internal:5672",
        "FYI the cron host is called batch-02.|FACT|The cron host is called batch-02",
        "I live in Porto and work remotely.|FACT|I live in Porto and work remotely",
        "My daughter's school finishes at 15:30.|FACT|My daughter's school finishes at 15:30",
        "Use pnpm, not npm.|PREFERENCE|Use pnpm, not npm",
        "Write the tests with AssertJ instead of Hamcrest.|PREFERENCE|Write the tests with AssertJ instead of Hamcrest",
        "Use pnpm, never npm, in this repo — npm breaks the lockfile.|PREFERENCE|Use pnpm, never npm, in this repo — npm breaks the lockfile",
        "Don't run the e2e suite locally, it's flaky on laptops.|PREFERENCE|Don't run the e2e suite locally, it's flaky on laptops",
        "Never ignore a failing test.|PREFERENCE|Never ignore a failing test",
        "Always run the linter before pushing, CI fails otherwise.|PREFERENCE|Always run the linter before pushing, CI fails otherwise",
        "Never use npm here; use pnpm.|PREFERENCE|Never use npm here; use pnpm",
        "Let's go with Redis for the rate limiter.|DECISION|Let's go with Redis for the rate limiter",
        "We're standardizing on Java 21 for all services.|DECISION|We're standardizing on Java 21 for all services",
        "Please keep functions under 40 lines.|PREFERENCE|Please keep functions under 40 lines",
        "Spell things the British way in the docs please.|PREFERENCE|Spell things the British way in the docs please",
        "Stick to 2-space indentation in YAML files.|PREFERENCE|Stick to 2-space indentation in YAML files",
        "Heads-up: the prod database is read-only on weekends.|FACT|The prod database is read-only on weekends",
        "staging is eu-central-1|FACT|Staging is eu-central-1",
        "btw when you return errors wrap them with fmt.Errorf, don't pull in pkg/errors|PREFERENCE|When you return errors wrap them with fmt.Errorf, don't pull in pkg/errors",
        "before you tell me something's done, please run the linter|PREFERENCE|Before you tell me something's done, please run the linter",
        "Small thing about me: I'm red-green colorblind (deuteranopia).|FACT|I'm red-green colorblind (deuteranopia)",
        "fyi how releases work here: nobody bumps versions by hand|FACT|How releases work here: nobody bumps versions by hand",
        "mock server runs on my desktop at 192.168.1.40, port 3001|FACT|Mock server runs on my desktop at 192.168.1.40, port 3001",
        "we squash merge only, titles are conventional commits (feat:, fix:, chore:)|FACT|We squash merge only, titles are conventional commits (feat:, fix:, chore:)",
        "Scheduling note: I'm in Auckland, it's NZST right now, UTC+12.|FACT|I'm in Auckland, it's NZST right now, UTC+12",
        "i really dont want unwrap() anywhere outside of tests|PREFERENCE|I really dont want unwrap() anywhere outside of tests",
        "our changelog is built by release-plz from the commit titles|FACT|Our changelog is built by release-plz from the commit titles",
        "scaffold packages/analytics with a test setup (for new packages i'd rather use vitest than jest)|PREFERENCE|For new packages i'd rather use vitest than jest",
        "hmm use polars for this, not pandas.|PREFERENCE|Use polars for this, not pandas",
        "yeah docker compose runs postgres 16 on port 55432|FACT|Docker compose runs postgres 16 on port 55432",
        "write them in Kotest FunSpec style and mock with MockK — I can't stand Mockito's backticks|PREFERENCE|Write them in Kotest FunSpec style and mock with MockK — I can't stand Mockito's backticks",
        "port the parser to nom, i find its combinators much nicer than hand-rolled loops|PREFERENCE|Port the parser to nom, i find its combinators much nicer than hand-rolled loops",
        "decision: solid queue.|DECISION|Decision: solid queue",
        "verdict — GRDB|DECISION|Verdict — GRDB",
        "if there's a migration, deploy first then run kamal app exec 'bin/rails db:migrate'|PREFERENCE|If there's a migration, deploy first then run kamal app exec 'bin/rails db:migrate'",
        "I'll explain how releases work here: 1) bump the version, 2) tag it and push the tag, 3) run argocd app sync prod|WORKFLOW|I'll explain how releases work here: 1) bump the version, 2) tag it and push the tag, 3) run argocd app sync prod",
        "wait, no — she moved the cutoff to 4pm in january|FACT|She moved the cutoff to 4pm in january",
        "we need to support python 3.9 for the old servers|FACT|We need to support python 3.9 for the old servers",
        "we have to keep the API backwards compatible for the mobile app|FACT|We have to keep the API backwards compatible for the mobile app",
        "the brand colour is red, #D32F2F|FACT|The brand colour is red, #D32F2F",
        "the status LED flashes green once the board is ready|FACT|The status LED flashes green once the board is ready",
        "rule in this codebase: every topic name comes from Topics, format \"<thing>:<id>\"|PATTERN|Rule in this codebase: every topic name comes from Topics, format \"<thing>:<id>\"",
        "convention — migrations are named by date|PATTERN|Convention — migrations are named by date",
        "please stop using count for collections, use for_each keyed by the az name|PREFERENCE|Please stop using count for collections, use for_each keyed by the az name",
        "stop adding emojis to commit messages|PREFERENCE|Stop adding emojis to commit messages",
        "deploy process: merge to main, CI builds the image, then someone runs fab deploy:prod|WORKFLOW|Deploy process: merge to main, CI builds the image, then someone runs fab deploy:prod",
        "never use moment.js here. use date-fns instead.|PREFERENCE|Never use moment.js here. Use date-fns instead",
        "I don't want exceptions in the packer. return std::expected<T, PackError> instead|PREFERENCE|I don't want exceptions in the packer. Return std::expected<T, PackError> instead",
      })
  void aStatementInOrdinaryWords_isFound_withItsType(String said, MemoryType type, String text) {
    Statements.Statement s = only(said);
    assertEquals(type, s.type(), s.toString());
    assertEquals(
        text, s.text().endsWith(".") ? s.text().substring(0, s.text().length() - 1) : s.text());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "add a retry to the payment client",
        "can you rename OrderDto to OrderView?",
        "please fix the flaky login test",
        "the build fails with a NullPointerException in Parser",
        "the settings page is really slow on Android",
        "how do we deploy this again?",
        "thanks, that's all for now",
        "perfect",
        "Let me look at the logs first.",
        "I just pulled main, check the tests for me",
        "rename fetchUser to loadUser everywhere",
        "use the staging database for this one",
        "write it so that it does not block the UI thread",
        "run the migration over the weekend",
        "don't worry, the build fails sometimes",
        "never mind, the tests are failing again",
        "let's go with the second option",
        "let's use a map here",
        "please keep the button blue",
        "please name the file config.yaml",
        "please write tests for the parser",
        "the refund handler returns a bare string on 404, make it match the rest of the API",
        "Quick one before standup.",
        "need a --region flag on sync",
        "need db-tier subnets in modules/vpc, one per AZ",
        "the dev build on my phone can't reach the api",
        "not urgent, just so you know",
        "wait no, I mixed it up.",
        "I just cloned the repo at v2.3.1, check the setup for me",
        "Good enough for now.",
        "Dump the relay env vars.",
        "Mix format pls, CI is red on formatting.",
        "the nightly export fails again. started after last week's deploy i think",
        "the share button on trail detail does nothing on android 14",
        "the sidebar vanishes when I resize the window",
        "my saved filters disappeared after the upgrade",
        "I press export and nothing happens",
        "got a report that two members ended up with the same plot for the same saturday slot",
        "customers complain the receipt shows yesterday's date",
        "the booking page shows both of them. how is that even possible",
        "the welcome emails never arrive for gmail addresses",
        "the log follower stops printing after the file is rotated",
        "the map editor segfaults when I close it",
        "the toolbar overlaps the status bar on small phones",
        "the landing page flashes unstyled content on a cold load",
        "the linter is whining about unused imports in utils.py",
        "live reload doesn't notice changes in the partials",
        "the app says connection refused on localhost:3000",
        "CI is red on main since this morning",
        "the worker is still up, it just went silent",
        "we need to ship the redemption endpoint today",
        "we should add experiment tracking.",
        "ok then just run a plan for staging locally so I can see the diff",
        "Much better, I can actually see it now.",
        "decision:",
        "stop the dev server and restart it",
        "ship it on friday. use the staging db instead",
        "maybe we add a linter for that later",
        "every plan shows the task definition must be replaced, even on a branch that only touches dns",
        "rule:",
        "yes add the test too. thx",
        "sure, add him to codeowners",
      })
  void aRequestQuestionProblemOrCourtesy_isNoStatement(String said) {
    assertEquals(List.of(), Statements.of(said));
  }

  @Test
  void oneMessage_carriesTheStatementBesideTheTask_asItsOwnClause() {
    assertEquals(
        List.of("We deploy from the release branch only"),
        texts("fix the footer typo. Oh and btw, we deploy from the release branch only"));
    assertEquals(
        List.of("The queue is SQS, not Kafka."),
        texts("add a consumer for refunds (FYI the queue is SQS, not Kafka.)"));
    assertEquals(
        List.of("Staging lives in us-east-2"),
        texts(
            "Quick note before we start: staging lives in us-east-2 Anyway, bump the"
                + " SDK version"));
  }

  @Test
  void aFactBeforeATaskInOneSentence_isKept_withoutTheTask() {
    assertEquals(
        List.of("The real one is com.pebblepay.mobile"),
        texts("the real one is com.pebblepay.mobile, fix both platforms"));
    assertEquals(
        List.of("Bundle id is com.pebble.app"),
        texts("bundle id is com.pebble.app, set it in app.json for both platforms"));
    assertEquals(
        List.of("For a hotfix, branch off main as hotfix/x, deploy to staging with make stage"),
        texts("For a hotfix, branch off main as hotfix/x, deploy to staging with make stage"),
        "a procedure's steps are not a task after a fact");
  }

  @Test
  void whatFollowsASayingThatSomethingWasWrong_correctsIt_andTheSayingIsNotKept() {
    List<Statements.Statement> said =
        Statements.of(
            "wait no, I mixed it up. staging is eu-central-1. us-west-2 was the old sandbox"
                + " account");
    assertEquals(
        List.of("Staging is eu-central-1.", "Us-west-2 was the old sandbox account"),
        said.stream().map(Statements.Statement::text).toList());
    assertTrue(said.stream().allMatch(Statements.Statement::correction), said.toString());
    Statements.Statement scratched =
        only("scratch the 1.21 thing. minimum is go 1.22, the renderer uses range-over-int");
    assertTrue(scratched.correction(), scratched.toString());
    assertTrue(scratched.text().startsWith("Minimum is go 1.22"), scratched.toString());
    assertEquals(
        List.of("The real one is com.pebblepay.mobile"),
        Statements.of(
                "ugh I gave you the wrong bundle id the other day. the real one is"
                    + " com.pebblepay.mobile, fix both platforms")
            .stream()
            .filter(Statements.Statement::correction)
            .map(Statements.Statement::text)
            .toList());
  }

  @Test
  void whatIsFineBesideAReportedProblem_isNoStatement() {
    assertEquals(
        List.of(),
        Statements.of("the sync crashes on windows when saving. works fine on mac/linux"));
    assertEquals(
        List.of(),
        Statements.of("the packer dies on the 2048x1 lookup texture. every other texture is fine"));
    assertEquals(
        List.of(
            new Statements.Statement(
                MemoryType.FACT, "The staging build runs fine on arm64.", false)),
        Statements.of("the staging build runs fine on arm64."),
        "without a problem beside it, what is fine is a fact");
  }

  @Test
  void aSemicolon_keepsATaskApartFromTheRuleBeforeIt() {
    assertEquals(
        List.of("Never push to main"),
        Statements.of("Never push to main; fix the login test first.").stream()
            .map(Statements.Statement::text)
            .toList());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "correction: the API gateway is on port 8443",
        "Actually scratch that, we deploy on Wednesdays now.",
        "we moved the wiki to Notion",
        "heads up, the on-call rotation is owned by Priya now",
        "we switched from Jenkins to GitHub Actions",
      })
  void aStatementWordedAsAChange_isACorrection(String said) {
    assertTrue(only(said).correction(), said);
  }

  /**
   * A correction's lead that names what it corrects before a colon leaves that subject in the
   * statement: "we're bumping it to 1.75" alone would not say what it replaces.
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "change of plan on the MSRV: we're bumping it to 1.75|On the MSRV: we're bumping it to 1.75",
        "correction on the retention: it's 35 days, not 30|On the retention: it's 35 days, not 30",
        "update for the staging db: it listens on 6543|For the staging db: it listens on 6543",
      })
  void aCorrectionThatNamesItsSubject_keepsTheSubject(String said, String text) {
    Statements.Statement s = only(said);
    assertTrue(s.correction(), s.toString());
    assertEquals(text, s.text());
  }

  @Test
  void aPlainStatement_isNoCorrection() {
    assertFalse(only("The API gateway is on port 8443.").correction());
    assertFalse(only("I'm in Auckland, so times are NZST right now.").correction());
  }

  /**
   * "Now" after a verb saying that something works or can be seen, or after what the speaker just
   * did, and a change told as the time of what is said ("when copy changed"), say when, not that a
   * fact changed: read as a correction, such a sentence replaced the memory it shared a subject
   * with ("I'm colorblind" by "I can actually see it now").
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "I pasted it now to config/credentials/production.key",
        "the importer builds now on the arm runners",
        "I get it now, the cache key includes the locale",
        "never use the english text as the key, that bit us when copy changed",
        "the migration picks up where the last import left off",
        "now the thing I need: the migrations that are not on prod yet",
        "now, the staging cluster runs three nodes",
      })
  void aChangeWordThatOnlySaysWhen_isNoCorrection(String said) {
    assertFalse(only(said).correction(), said);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"we deploy with kamal now", "the gateway is on port 8443 now"})
  void nowAfterAStatedValue_isStillACorrection(String said) {
    assertTrue(only(said).correction(), said);
  }

  /**
   * A lower-case "now" right after a word closes the clause that states the changed value; what
   * follows its comma or colon (the old value ruled out, a detail of the new one, a reason) belongs
   * to the same statement. Cut there, the statement lost the "now" that makes it a correction and
   * the rest was kept alone ("Not yarn.") or dropped ("hostname nuc-shed").
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "we use pnpm now, not yarn|pnpm|yarn",
        "the API lives on port 8443 now, behind the gateway|8443|gateway",
        "the controller runs on the NUC in the shed now, hostname nuc-shed, x86_64|NUC|nuc-shed",
        "releases are cut from the trunk branch now: tag it and CI publishes|trunk|CI publishes",
        "the bucket is called acme-prod-assets now, the old one was deleted|acme-prod-assets|deleted",
      })
  void aChangeClosedByNow_keepsWhatFollowsAndIsACorrection(String said, String value, String rest) {
    Statements.Statement statement = only(said);
    assertTrue(statement.correction(), said + " -> " + statement);
    assertTrue(statement.text().contains(value), statement.text());
    assertTrue(statement.text().contains(rest), statement.text());
  }

  /**
   * "Now," still opens a new part where it starts one: capitalised after a statement whose full
   * stop was left out, after a mark that ends a part, or as "not now" (a deferral, not a change).
   */
  @Test
  void nowThatStartsAPart_stillCutsTheSentence() {
    assertEquals(
        List.of("We settled on Airflow for orchestration"),
        texts("We settled on Airflow for orchestration Now, add a toString to the Money class"));
    assertEquals(
        List.of("Staging runs on k3s"),
        texts("staging runs on k3s, now: add the retry to the uploader"));
    assertEquals(List.of(), texts("not now, I'll open an issue"));
  }

  @Test
  void whatIsRuledOut_andWhatToDoInstead_areOnePreference() {
    assertEquals(
        new Statements.Statement(
            MemoryType.PREFERENCE,
            "No CBVs please. Plain function-based views with a decorator or two, and put the"
                + " query in a small helper in selectors.py.",
            false),
        Statements.of(
                "ugh no CBVs please. plain function-based views with a decorator or two, and put"
                    + " the query in a small helper in selectors.py. every time I debug a ListView"
                    + " I end up reading django source")
            .get(0));
    assertEquals(
        List.of(
            "No, not a whole component lib for one popup. Use a plain <dialog> element and"
                + " showModal(), browsers do the focus trap themselves these days. Keep it"
                + " dependency free."),
        texts(
            "eh no, not a whole component lib for one popup. just use a plain <dialog> element"
                + " and showModal(), browsers do the focus trap themselves these days. keep it"
                + " dependency free"));
    assertEquals(
        List.of(
            "Can we not do the assertThat chains in new tests. Kotest assertions pls, `x shouldBe"
                + " y` reads so much better.",
            "Dont rewrite the old tests tho, just new stuff"),
        texts(
            "hmm can we not do the assertThat chains in new tests. kotest assertions pls, `x"
                + " shouldBe y` reads so much better. dont rewrite the old tests tho, just new"
                + " stuff"));
    assertEquals(
        List.of(
            "Can we not use iostream. Fmt::print everywhere please, we already link fmt. And put"
                + " progress output on stderr so stdout stays clean for --json."),
        texts(
            "can we not use iostream. fmt::print everywhere please, we already link fmt. and put"
                + " progress output on stderr so stdout stays clean for --json"));
    assertEquals(
        List.of("Don't use moment. Date-fns pls, it tree-shakes."),
        texts("don't use moment. date-fns pls, it tree-shakes"));
    assertEquals(
        List.of("Nah no ExMachina please. I like the plain fixture functions."),
        texts("nah no ExMachina please. i like the plain fixture functions"));
  }

  @Test
  void aTracePastedUnderAReport_statesNothing_butWhatTheUserWroteAroundItStays() {
    assertEquals(
        List.of("We use uv, not pip"),
        texts(
            "GET /invoices/7 returns 500 since the line items change went in. traceback:\n\n"
                + "  File \"/home/dev/src/ledgerly/app/api/routes/invoices.py\", line 48, in"
                + " get_invoice\n"
                + "    return InvoiceWithLines.model_validate(invoice)\n"
                + "sqlalchemy.exc.MissingGreenlet: greenlet_spawn has not been called; can't call"
                + " await_only() here.\n"
                + "we use uv, not pip"));
    assertEquals(
        List.of(),
        texts(
            "reminders crash since the deploy:\n"
                + "at Clinicore.Infrastructure.Reminders.ReminderWorker.TickAsync(CancellationToken"
                + " ct) in /src/Reminders/ReminderWorker.cs:line 44\n"
                + "```\nThe reminder worker depends on the clock service here\n```"));
  }

  @Test
  void aHostileMessageOfMegabytes_isReadWithinItsWindow() {
    assertEquals(List.of(), Statements.of("at " + "a.".repeat(5_000_000)));
    assertEquals(
        List.of(),
        Statements.of("  File \"a.py\", line 1, in f\n".repeat(300_000)),
        "a pasted trace of any length states nothing");
  }

  @Test
  void aReplyWordBeforeAStatement_isLeftOut() {
    assertEquals(
        List.of("The rule in our group: notebooks/ only, named date_initials_topic."),
        texts("yes the rule in our group: notebooks/ only, named date_initials_topic."));
  }

  @Test
  void firstPersonClausesJoinedByAndI_areEachTheirOwn_soAProblemWordInOneLeavesTheOther() {
    assertEquals(
        List.of(
            "Some context: I'm the only SRE here, I'm based in Auckland so anything that needs me"
                + " awake should be in my morning"),
        texts(
            "some context: I'm the only SRE here, I'm based in Auckland so anything that needs me"
                + " awake should be in my morning, and I don't work Wednesdays, nothing gets"
                + " scheduled then."));
    assertEquals(
        List.of("I use pnpm, and I never run npm install in this repo."),
        texts("I use pnpm, and I never run npm install in this repo."));
    assertEquals(
        List.of("if the deploy fails at night, and I am not around, roll it back with kamal"),
        Statements.clauses(
            "if the deploy fails at night, and I am not around, roll it back with kamal"),
        "a condition stays whole");
  }

  @Test
  void aFirstPersonFact_thenSoAndWhatItAsksOfTheAgent_areEachTheirOwn() {
    assertEquals(
        List.of(
            "I use a screen reader (NVDA)",
            "No tables, no ascii diagrams, no emoji in your answers please."),
        texts(
            "btw I use a screen reader (NVDA), so no tables, no ascii diagrams, no emoji in your"
                + " answers please."));
    assertEquals(
        List.of(MemoryType.FACT, MemoryType.PREFERENCE),
        Statements.of("I use a screen reader (NVDA), so no tables in your answers please.").stream()
            .map(Statements.Statement::type)
            .toList());
    assertEquals(
        List.of(),
        texts("I changed the config, so the tests fail now."),
        "a consequence that is no request leaves the report whole");
    assertEquals(
        List.of(
            "I'm colorblind (deuteranopia), so don't describe diffs or chart lines to me by red vs"
                + " green, name them or use shapes"),
        texts(
            "small thing: I'm colorblind (deuteranopia), so don't describe diffs or chart lines to"
                + " me by red vs green, name them or use shapes"),
        "a half too short to keep alone leaves the sentence whole, with its reason");
  }

  @Test
  void aProblemToldInEverydayWords_isAReport_notAFact() {
    for (String report :
        List.of(
            "GET /carrier-accounts/:id is 500ing in dev since the migration",
            "POST /invoices returns 422 when due_date is sent without time",
            "tasks sit in 'queued' forever in my local airflow since yesterday",
            "eslint is yelling in CI about unused imports",
            "now the problem: the export button gives empty file when the list has 50 items",
            "the problem is the webhook retries twice",
            "the csv export came back empty for march",
            "frontend gets 'blocked by CORS policy' but only on PATCH and DELETE",
            "deploy of the shared stack blows up since I removed the bucket usage")) {
      assertTrue(Statements.reportsProblem(report), report);
      assertEquals(List.of(), texts(report), report);
    }
    assertFalse(Statements.reportsProblem("the export returns 400 rows per page"));
    assertEquals(
        List.of(),
        texts(
            "build fails on the new CI agent with 'A compatible SDK was not found'. works on my"
                + " machine"),
        "what works elsewhere is the report's context");
  }

  @Test
  void aRequestAfterAConnectiveOrUnderATopic_isARequest_butATopicThatTellsIsNot() {
    assertEquals(List.of(), texts("also allow PNG for now"));
    assertEquals(List.of(), texts("labels: add a `format` field to CreateLabelDto."));
    assertEquals(
        List.of(
            "The order is: `make fetch STATION=all`, then `snakemake -j8 forecasts`, and last the"
                + " report"),
        texts(
            "the order is: `make fetch STATION=all`, then `snakemake -j8 forecasts`, and last the"
                + " report"));
  }

  @Test
  void aNounBeforeAVerbOfBeing_isASubject_evenThreeWordsIn() {
    assertEquals(
        List.of("Commit msgs here are conventional commits with the nest module as the scope"),
        texts("commit msgs here are conventional commits with the nest module as the scope"));
    assertEquals(List.of(), texts("check the db is up"));
    assertEquals(List.of(), texts("check if it is still running"));
  }

  @Test
  void whatTheUserHasNeverDone_andALetToGoOn_areNoRules() {
    assertEquals(List.of(), texts("hive, isar or drift? never used any of them"));
    assertEquals(List.of(), texts("yes you can add the packages for this"));
    assertEquals(List.of(), texts("sure, go ahead and bump it"));
    assertEquals(
        List.of("Never run goreleaser locally, it'll publish with your personal token"),
        texts("never run goreleaser locally, it'll publish with your personal token"));
    assertEquals(
        List.of("Never embed secrets in the image"), texts("never embed secrets in the image"));
  }

  @Test
  void aRequestMadeToHoldFromNowOn_isOneDecision_butAPlainRequestIsNone() {
    List<Statements.Statement> said =
        Statements.of(
            "move it to half past four utc instead. and fyi thats the official time from now on,"
                + " the 2am thing is wrong everywhere");
    assertEquals(1, said.size(), said.toString());
    assertEquals(
        "Move it to half past four utc instead. Thats the official time from now on, the 2am"
            + " thing is wrong everywhere.",
        said.get(0).text());
    assertTrue(Statements.askedForGood(said.get(0)));
    assertEquals(List.of(), texts("move it to half past four utc instead. thanks"));
  }

  @Test
  void aChangeOfPlansFromSomeone_isACorrection_withoutItsLead() {
    List<Statements.Statement> said =
        Statements.of(
            "change of plans from the warehouse people: the default label format has to be ZPL,"
                + " not PDF");
    assertEquals(1, said.size(), said.toString());
    assertEquals("The default label format has to be ZPL, not PDF", said.get(0).text());
    assertTrue(said.get(0).correction());
  }

  @Test
  void aNoThatOnlyPointsAtAnotherThing_isNoStandingStatement() {
    assertEquals(List.of(), texts("No, the other file"));
    assertEquals(List.of(), texts("no the one in src/lib"));
    assertEquals(List.of(), texts("nope, that one."));
    assertEquals(List.of(), texts("no I meant the second one"));
    assertEquals(List.of(), texts("no, the tests in api/"));
    // a pointer that goes on to say something is still kept
    assertEquals(
        List.of("No, the integration tests go in tests/integration"),
        texts("No, the integration tests go in tests/integration"));
    assertEquals(
        List.of("No, the staging db is on port 5433"), texts("no, the staging db is on port 5433"));
  }

  @Test
  void aRejection_doesNotTakeInATaskANewSubjectOrAQuestion() {
    assertEquals(List.of(), texts("no worries. add the column to the model"));
    assertEquals(List.of(), texts("no, not yet. run the tests first"));
    assertEquals(
        List.of("Don't use pip directly."),
        texts("Don't use pip directly. Also, split pipeline/transform.py into smaller functions."));
    assertEquals(
        List.of("Never kubectl scale by hand.", "The vpc module has a hard-coded CIDR"),
        texts("Never kubectl scale by hand. Anyway, the vpc module has a hard-coded CIDR"));
    assertEquals(
        List.of("Never push to main."), texts("never push to main. can you use the gh cli here?"));
    assertEquals(List.of(), texts("can we not just use the existing retry helper?"));
  }

  @Test
  void aRejectionAlone_isKeptWhenItNamesWhatItRulesOut() {
    assertEquals(
        new Statements.Statement(MemoryType.PREFERENCE, "No Lombok in the new modules", false),
        only("ugh, no Lombok in the new modules"));
    assertEquals(List.of(), texts("nah, not today"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "now every page is a 500 in dev",
        "the login endpoint returns a 502 since the deploy",
        "the asan CI job is red on ListTest",
        "it fell over halfway through the inventory",
        "the consumer keeps dying in the dev env",
        "the importer blew up on the March file"
      })
  void aFailureToldInEverydayWords_isAReportedProblem(String said) {
    assertTrue(Statements.reportsProblem(said), said);
  }

  @Test
  void aShortRemarkAboutWhatWasJustSaid_isNoFact_butOneThatQuotesOrNamesSomethingIs() {
    assertEquals(List.of(), texts("They asked that too."));
    assertEquals(List.of(), texts("feels like it's growing"));
    assertEquals(
        List.of("It's `bundle exec fastlane beta` from the repo root."),
        texts("It's `bundle exec fastlane beta` from the repo root."));
    assertEquals(
        List.of("It listens on port 8443 in staging"), texts("it listens on port 8443 in staging"));
  }

  @Test
  void dontWithoutItsApostrophe_isAnInstruction() {
    assertEquals(
        MemoryType.PREFERENCE,
        only("dont mock the db. we got burned when mocked tests passed and the migration failed")
            .type());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "can you always run the formatter before you commit|Please always run the formatter before you commit",
        "could you reply in British English from now on?|Please reply in British English from now on",
        "ugh. can we please stick to two-space indents in the YAML files|Please stick to two-space indents in the YAML files",
        "would you please never push straight to main|Please never push straight to main",
        "can you stop adding emojis to the commit messages?|Please stop adding emojis to the commit messages",
        "hmm can u use pytest fixtures instead of setUp methods in this repo|Please use pytest fixtures instead of setUp methods in this repo",
        "could you keep commit subjects under 50 characters|Please keep commit subjects under 50 characters",
        "will you answer in German by default?|Please answer in German by default",
      })
  void aPoliteRequestThatSaysItHolds_isTheStandingInstruction_anImperativeWouldBe(
      String said, String text) {
    Statements.Statement s = only(said);
    assertEquals(MemoryType.PREFERENCE, s.type(), s.toString());
    assertEquals(
        text, s.text().endsWith(".") ? s.text().substring(0, s.text().length() - 1) : s.text());
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "can you explain why the build fails?",
        "could we use Redis here?",
        "would you use Kafka or SQS for this?",
        "can we keep the old endpoint around for now?",
        "can you add a retry to the payment client",
        "could you rename the helper to parseRow please",
        "could you explain why the deploy always fails",
        "can you check whether the nightly job always runs at 2am?",
        "can you tell me what we always do before a release",
        "can we not just use the helper?",
      })
  void aPoliteRequestForNow_orARealQuestion_isNoStatement(String said) {
    assertEquals(List.of(), Statements.of(said));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "one line is plenty for a docstring unless the function does something weird",
        "we deploy on fridays unless the build is broken",
        "unless the canary errors, we promote the release after an hour",
        "migrations go in db/migrate except when they are flaky data fixes",
        "integration tests run nightly on the big runner, except if the staging cluster is broken",
        "keep docstrings to one line, one line is plenty unless the function does something"
            + " genuinely weird",
      })
  void aProblemWordInsideAnExceptionToARule_doesNotMakeTheRuleAReport(String said) {
    assertEquals(1, Statements.of(said).size(), said + " -> " + Statements.of(said));
  }

  @Test
  void anExceptionClause_keepsItsRuleInAMessageThatReportsNothingElse() {
    assertEquals(
        List.of("One line is plenty unless the function does something genuinely weird"),
        texts(
            "why does every function here come with a docstring essay? one line is plenty unless"
                + " the function does something genuinely weird"));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "the export fails unless I restart the worker",
        "the sync never finishes unless I clear the cache",
        "login breaks except when I use the staging database",
        "uploads work unless the file is huge, then it times out",
        "users get logged out if the token refresh fails",
        "the page goes blank when the API is slow",
        "our retry wrapper has a bare except that hides the timeout errors",
        "the checkout page works unless the cart has a weird discount code",
        "the app runs fine on my laptop unless the VPN is on and then every request fails",
      })
  void aProblemInTheMainClause_orInAPlainCondition_isStillAReport(String said) {
    assertEquals(List.of(), Statements.of(said));
  }

  @Test
  void subjects_nameBothSidesOfAContrast_andTheWordsThatNameThings() {
    assertEquals(List.of("pnpm", "npm"), Statements.subjects("we use pnpm not npm in this repo"));
    assertEquals(
        List.of("pagerduty", "opsgenie"),
        Statements.subjects("we switched on-call from PagerDuty to Opsgenie").subList(0, 2));
    assertTrue(Statements.subjects("env vars are prefixed with SHOP_").contains("shop_"));
  }
}
