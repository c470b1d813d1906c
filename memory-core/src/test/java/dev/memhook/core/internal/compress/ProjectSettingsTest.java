package dev.memhook.core.internal.compress;

import static dev.memhook.core.internal.compress.CaptureFixtures.bash;
import static dev.memhook.core.internal.compress.CaptureFixtures.observation;
import static dev.memhook.core.internal.compress.CaptureFixtures.stored;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.memhook.api.capture.EventData;
import dev.memhook.api.capture.LifecycleEventType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What a read of the project's configuration is restated as. */
class ProjectSettingsTest {

  private static String content(String path, String text) {
    return ProjectSettings.read(path, text).orElseThrow().content();
  }

  @Test
  void aVersionPin_statesTheRuntimeAndItsVersion() {
    ProjectSettings.Found found = ProjectSettings.read(".nvmrc", "20.11.1\n").orElseThrow();

    assertEquals(
        "This project pins its Node.js runtime to version 20.11.1 (.nvmrc).", found.content());
    assertEquals(".nvmrc, the Node.js version", found.title());
    assertEquals(java.util.List.of("node", ".nvmrc"), found.subjects());
  }

  @Test
  void aFileReadersLineNumbers_areNotPartOfWhatItHolds() {
    assertEquals(
        "This project pins its Python runtime to version 3.12.1 (.python-version).",
        content("/home/dev/src/app/.python-version", "     1\t3.12.1\n     2\t\n"));
    assertTrue(
        content("/repo/.env.sample", "     1→LOG_LEVEL=debug\n")
            .contains("log level (LOG_LEVEL): debug"));
  }

  @Test
  void toolVersions_pinsEachTool() {
    assertEquals(
        "This project pins these runtime and tool versions in .tool-versions: nodejs version"
            + " 20.11.1; python version 3.12.1.",
        content(".tool-versions", "# asdf\nnodejs 20.11.1\npython 3.12.1\n"));
  }

  @Test
  void aCMakeFile_statesTheDependenciesItFetchesAtAPinnedTag() {
    ProjectSettings.Found found =
        ProjectSettings.read(
                "/src/cv/cmake/Dependencies.cmake",
                "     1\tinclude(FetchContent)\n"
                    + "     2\tFetchContent_Declare(fmt GIT_REPOSITORY"
                    + " https://github.com/fmtlib/fmt.git GIT_TAG 10.2.1)\n"
                    + "     3\tFetchContent_Declare(\n     4\t  spdlog\n     5\t  GIT_REPOSITORY"
                    + " https://github.com/gabime/spdlog.git\n     6\t  GIT_TAG v1.11.0\n     7\t)\n"
                    + "     8\tFetchContent_MakeAvailable(fmt spdlog)\n")
            .orElseThrow();
    assertEquals(
        "This project fetches these dependencies at pinned versions in Dependencies.cmake: fmt"
            + " version 10.2.1; spdlog version v1.11.0.",
        found.content());
    assertEquals(List.of("fmt", "spdlog"), found.subjects());
    assertTrue(ProjectSettings.read("CMakeLists.txt", "project(cv LANGUAGES CXX)\n").isEmpty());
  }

  @Test
  void anEnvironmentFile_givesEachKeyInWordsBesideItself() {
    String said =
        content(
            ".env.example",
            "WAREHOUSE_ACCOUNT=xy12345\nWAREHOUSE_SCHEMA=ANALYTICS_RAW\nexport LOG_LEVEL=\"info\"\n");

    assertEquals(
        "Settings in .env.example: warehouse account (WAREHOUSE_ACCOUNT): xy12345; warehouse"
            + " schema (WAREHOUSE_SCHEMA): ANALYTICS_RAW; log level (LOG_LEVEL): info.",
        said);
  }

  @Test
  void aTomlSection_prefixesItsKeys_andInlineTablesAreRead() {
    String said =
        content(
            "gradle/libs.versions.toml",
            """
            [versions]
            spring-boot = "3.2.5"

            [libraries]
            jackson = { module = "com.fasterxml.jackson.core:jackson-databind", version = "2.17.1" }
            """);

    assertTrue(said.contains("versions spring boot (spring-boot): 3.2.5"), said);
    assertTrue(said.contains("libraries jackson version: 2.17.1"), said);
  }

  @Test
  void aGradleBuild_namesASettingByItsEnclosingBlocks() {
    String said =
        content(
            "app/build.gradle.kts",
            """
            android {
                namespace = "io.fitapp.tracker"
                defaultConfig {
                    applicationId = "io.fitapp.tracker"
                    versionName = "4.12.0"
                }
            }
            """);

    assertTrue(said.contains("android namespace: io.fitapp.tracker"), said);
    assertTrue(
        said.contains("android default config application id (applicationId): io.fitapp.tracker"),
        said);
    assertTrue(said.contains("default config version name (versionName): 4.12.0"), said);
  }

  @Test
  void packageJson_isReadAsJson_withNestedKeys() {
    String said =
        content(
            "package.json",
            """
            {"name": "storefront-web", "packageManager": "yarn@4.1.0",
             "engines": { "node": ">=18" }, "files": ["dist", "README.md"],
             "scripts": { "build": "vite build" }}
            """);

    assertEquals(
        "Settings in package.json: name: storefront-web; package manager (packageManager):"
            + " yarn@4.1.0; engines node: >=18; files: dist, README.md; scripts build: vite build.",
        said);
  }

  @Test
  void aManifestsDependencies_areRestatedApart_asNamesAndVersions_runtimeFirst() {
    String manifest =
        """
        {"name": "mealcraft", "scripts": { "dev": "next dev -p 3100" },
         "devDependencies": { "vitest": "^1.6.0" },
         "dependencies": { "drizzle-orm": "0.33.0", "@trpc/server": "11.0.0-rc.477",
                           "private-lib": "[redacted:token]" }}
        """;

    assertEquals(
        "Settings in package.json: name: mealcraft; scripts dev: next dev -p 3100.",
        content("package.json", manifest),
        "the dependencies are not settings");
    ProjectSettings.Found dependencies =
        ProjectSettings.dependencies("/home/dev/src/mealcraft/package.json", manifest)
            .orElseThrow();
    assertEquals(
        "Dependencies in package.json, with their versions: drizzle-orm 0.33.0, @trpc/server"
            + " 11.0.0-rc.477; devDependencies: vitest ^1.6.0.",
        dependencies.content());
    assertEquals("package.json, its dependencies", dependencies.title());
    assertEquals(
        "Dependencies in composer.json, with their versions: php ^8.3, laravel/framework ^11.9.",
        ProjectSettings.dependencies(
                "composer.json",
                "{\"require\": {\"php\": \"^8.3\", \"laravel/framework\": \"^11.9\"}}")
            .orElseThrow()
            .content());
  }

  @Test
  void dependenciesOfAFileThatIsNoManifest_orOfAReadCutShort_areNotRestated() {
    String deps = "{\"dependencies\": {\"left-pad\": \"1.3.0\"}}";
    assertTrue(ProjectSettings.dependencies("tsconfig.json", deps).isEmpty());
    assertTrue(
        ProjectSettings.dependencies("package.json", "{\"dependencies\": {\"a\": \"1.0").isEmpty());
    assertTrue(ProjectSettings.dependencies("package.json", "{\"name\": \"x\"}").isEmpty());
  }

  @Test
  void aPythonSettingsModule_isReadAsAssignments_withoutTypesCallsOrSecrets() {
    String pydantic =
        """
        from pydantic_settings import BaseSettings, SettingsConfigDict

        class Settings(BaseSettings):
            model_config = SettingsConfigDict(env_file=".env")
            database_url: str
            jwt_secret: str = "change-me"
            access_token_ttl_minutes: int = 25  # short on purpose
            api_key_header: str = "X-Api-Key"

        settings = Settings()
        """;
    assertEquals(
        "Settings in config.py: access token ttl minutes (access_token_ttl_minutes): 25; api key"
            + " header (api_key_header): X-Api-Key.",
        content("/w/ledgerly/app/core/config.py", pydantic),
        "a measure or a kind of a secret is no secret; the secret and a bare annotation are out");
    assertEquals(
        "Settings in settings.py: debug (DEBUG): False; time zone (TIME_ZONE): Europe/Berlin.",
        content(
            "/w/shop/shop/settings.py",
            "SECRET_KEY = 'django-insecure-x'\nDEBUG = False\nTIME_ZONE = 'Europe/Berlin'\n"));
    assertTrue(ProjectSettings.read("/w/shop/shop/views.py", "DEBUG = False\n").isEmpty());
  }

  @Test
  void aCommentAfterAValue_isNoPartOfIt_inYamlAndToml() {
    assertEquals(
        "Settings in values.yaml: service port: 8082; docs: http://docs/#setup.",
        content(
            "charts/app/values.yaml",
            "tag: \"\"  # set per environment\nservice:\n  port: 8082  # the service port\n"
                + "docs: \"http://docs/#setup\"\n"),
        "an empty value with a comment says nothing; a # inside a string stays");
  }

  @Test
  void dotnetsGlobalJson_isConfiguration() {
    assertEquals(
        "Settings in global.json: sdk version: 8.0.204; sdk roll forward (rollForward):"
            + " latestFeature.",
        content(
            "global.json",
            "{\"sdk\": {\"version\": \"8.0.204\", \"rollForward\": \"latestFeature\"}}"));
  }

  @Test
  void aFileInAConfigurationDirectory_orAToolsKnownConfig_isConfiguration_notALocaleFile() {
    assertEquals(
        "Settings in kelp.yaml: tile size (tile_size): 384.",
        content("/w/kelpnet/conf/data/kelp.yaml", "tile_size: 384\n"));
    assertEquals(
        "Settings in cdk.json: context max azs (maxAzs): 2.",
        content("/w/infra/cdk.json", "{\"context\": {\"maxAzs\": 2}}"));
    assertTrue(
        ProjectSettings.read("/w/shop/config/locales/en.yml", "greeting: Hello\n").isEmpty());
    assertTrue(ProjectSettings.read("/w/shop/data/kelp.yaml", "tile_size: 384\n").isEmpty());
  }

  @Test
  void aQuotedKeyOfAnyCharacters_isAKey() {
    assertEquals(
        "Settings in nuxt.config.ts: route rules /products/** swr: 600.",
        content(
            "nuxt.config.ts",
            "export default defineNuxtConfig({\n  routeRules: {\n    '/products/**': { swr: 600 },\n"
                + "  },\n})\n"));
  }

  @Test
  void aJavaScriptConfig_readsTheExportedObjectsKeys() {
    String said =
        content(
            "docusaurus.config.js",
            """
            // @ts-check
            module.exports = {
              title: 'Acme Handbook',
              baseUrl: '/handbook/',
              onBrokenLinks: 'throw',
              themeConfig: {
                navbar: { title: "Docs" },
              },
            };
            """);

    assertEquals(
        "Settings in docusaurus.config.js: title: Acme Handbook; base url (baseUrl): /handbook/;"
            + " on broken links (onBrokenLinks): throw; theme config navbar title: Docs.",
        said);
  }

  @Test
  void aYamlFile_nestsByIndentation() {
    String said =
        content(
            "src/main/resources/application.yml",
            """
            server:
              port: 8081
            spring:
              datasource:
                url: jdbc:postgresql://localhost:55432/app
            logging:
              level: INFO
            """);

    assertEquals(
        "Settings in application.yml: server port: 8081; spring datasource url:"
            + " jdbc:postgresql://localhost:55432/app; logging level: INFO.",
        said);
  }

  @Test
  void codeOwners_namesTheOwnerOfEachPath() {
    assertEquals(
        "Code owners in CODEOWNERS (an owner reviews and approves changes to what they own): * is"
            + " owned by @shop/backend; /src/payments/ is owned by @lena-k, @omar-s.",
        content(
            ".github/CODEOWNERS", "# owners\n*   @shop/backend\n/src/payments/ @lena-k @omar-s\n"));
  }

  @Test
  void whatTheSanitizerReplaced_isLeftOut() {
    String said = content(".env.example", "SENTRY=[redacted:url]\nREGION=eu-west-1\n");

    assertEquals("Settings in .env.example: region (REGION): eu-west-1.", said);
    assertTrue(ProjectSettings.read(".env.example", "HOOK=[redacted:token]\n").isEmpty());
    assertTrue(ProjectSettings.read(".nvmrc", "[private]\n").isEmpty());
  }

  @Test
  void aKeyThatNamesASecret_isLeftOut_evenWithAValueTheSanitizerLetThrough() {
    String said =
        content(
            "src/main/resources/application.properties",
            """
            spring.datasource.password=hunter2hunter2
            stripe.apiKey=notreallyasecret
            jwt.signing-key=abc
            db.pwd=abc
            server.port=8080
            """);

    assertEquals("Settings in application.properties: server port (server.port): 8080.", said);
  }

  @Test
  void aDottedKeyWithAQuotedPart_isOneKey_andAKeyBeforeAQuotedValueStillReads() {
    assertEquals(
        "Settings in application.properties: quarkus cache caffeine \"latest rates\" expire after"
            + " write (quarkus.cache.caffeine.\"latest-rates\".expire-after-write): 90S.",
        content(
            "application.properties",
            "quarkus.cache.caffeine.\"latest-rates\".expire-after-write=90S\n"));
    assertEquals(
        "Settings in Gemfile.toml: ruby: 3.3.1.", content("Gemfile.toml", "ruby \"3.3.1\"\n"));
  }

  @ParameterizedTest
  @ValueSource(strings = {".env", ".env.local", ".env.production", "deploy/prod.env"})
  void aLiveEnvironmentFile_isNotRestated_itsTemplateIs(String path) {
    String text = "LOG_LEVEL=info\nREGION=eu-west-1\n";

    assertTrue(ProjectSettings.read(path, text).isEmpty(), path);
    assertTrue(ProjectSettings.read(path + ".example", text).isPresent(), path + ".example");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "package-lock.json",
        "yarn.lock",
        "test/fixtures/users.json",
        "src/app.ts",
        "README.md",
        "data/rows.yaml",
        "Makefile"
      })
  void aFileThatIsNotConfiguration_isNotRestated(String path) {
    assertTrue(
        ProjectSettings.read(path, "{\"name\": \"alice\", \"role\": \"admin\"}\nname: alice\n")
            .isEmpty(),
        path);
  }

  @Test
  void aHugeOrHostileRead_yieldsABoundedNumberOfSettings() {
    StringBuilder big = new StringBuilder();
    for (int i = 0; big.length() < 10_000_000; i++) {
      big.append("OPTION_").append(i).append('=').append("v".repeat(i % 300)).append('\n');
    }
    String said = content(".env.example", big.toString());
    assertTrue(said.split("; ").length <= ConfigurationFiles.MAX_SETTINGS, said);
    assertFalse(said.contains("v".repeat(ConfigurationFiles.MAX_VALUE + 1)), said);

    assertTrue(ProjectSettings.read("package.json", "{\"a\":" + "[".repeat(5_000)).isEmpty());
    assertTrue(ran("terraform version", "9.".repeat(45_000)).isEmpty());
    assertEquals(
        "The installed terraform is version 1.2.3 (terraform version: 1.2.3; 1.2.3; 1.2.3; 1.2.3).",
        ran("terraform version", "1.2.3\n".repeat(15_000)).orElseThrow().content());
    assertTrue(ProjectSettings.read(".nvmrc", "   \n\n").isEmpty());
    assertTrue(ProjectSettings.read(".nvmrc", "not a version at all\n").isEmpty());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "baseUrl|base url",
        "BASE_URL|base url",
        "base-url|base url",
        "spring.datasource.url|spring datasource url",
        "applicationId|application id",
        "x|x"
      })
  void aKeyInWords(String key, String words) {
    assertEquals(words, ConfigurationFiles.words(key));
  }

  @Test
  void aShellCommandPrintingOneFile_isRead() {
    Optional<ProjectSettings.Found> found =
        ProjectSettings.of(
            ObservationView.of(
                stored(bash("c1", "cat .nvmrc", "{\"stdout\":\"20.11.1\\n\",\"stderr\":\"\"}"))));

    assertEquals(".nvmrc, the Node.js version", found.orElseThrow().title());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "cat .nvmrc | tr -d v",
        "cat .nvmrc .python-version",
        "cat .nvmrc > out.txt",
        "echo 20.11.1",
        "rm .nvmrc"
      })
  void aCommandThatDoesNotPrintOneFile_isNotRead(String command) {
    assertTrue(
        ProjectSettings.of(
                ObservationView.of(
                    stored(bash("c1", command, "{\"stdout\":\"20.11.1\\n\",\"stderr\":\"\"}"))))
            .isEmpty(),
        command);
  }

  @Test
  void aJsonFileRead_isItsOwnText_andAnEmptyStdoutPrintedNothing() {
    Optional<ProjectSettings.Found> json =
        ProjectSettings.of(
            ObservationView.of(
                stored(
                    observation(
                        "r1",
                        LifecycleEventType.POST_TOOL_USE,
                        EventData.tool(
                            "Read",
                            "{\"file_path\":\"package.json\"}",
                            "{\"name\":\"shop\",\"packageManager\":\"pnpm@9.1.0\"}")))));
    Optional<ProjectSettings.Found> nothing =
        ProjectSettings.of(
            ObservationView.of(
                stored(
                    bash(
                        "c1",
                        "cat package.json",
                        "{\"stdout\":\"\",\"stderr\":\"cat: package.json: No such file\"}"))));

    assertEquals(
        "Settings in package.json: name: shop; package manager (packageManager): pnpm@9.1.0.",
        json.orElseThrow().content());
    assertTrue(nothing.isEmpty(), nothing.toString());
  }

  @Test
  void aFileReadingTool_isReadFromItsInputPath() {
    Optional<ProjectSettings.Found> found =
        ProjectSettings.of(
            ObservationView.of(
                stored(
                    observation(
                        "r1",
                        LifecycleEventType.POST_TOOL_USE,
                        EventData.tool(
                            "Read",
                            "{\"file_path\":\"/home/dev/shop/.env.example\"}",
                            "     1\tSHOP_CURRENCY=EUR\n")))));

    assertEquals(
        "Settings in .env.example: shop currency (SHOP_CURRENCY): EUR.",
        found.orElseThrow().content());
  }

  @Test
  void anEditOfAConfigurationFile_isNotARead() {
    assertTrue(
        ProjectSettings.of(
                ObservationView.of(
                    stored(
                        observation(
                            "e1",
                            LifecycleEventType.POST_TOOL_USE,
                            EventData.tool(
                                "Edit",
                                "{\"file_path\":\".env\",\"old_string\":\"A=1\",\"new_string\":\"A=2\"}",
                                "A=2")))))
            .isEmpty());
  }

  @Test
  void theGitRemote_namesTheRepositoryOnItsHost() {
    Optional<ProjectSettings.Found> found =
        ProjectSettings.of(
            ObservationView.of(
                stored(
                    bash(
                        "g1",
                        "git remote -v",
                        "{\"stdout\":\"origin\\tgit@github.com:acme-corp/storefront-web.git (fetch)\\n"
                            + "origin\\tgit@github.com:acme-corp/storefront-web.git (push)\\n"
                            + "upstream\\thttps://gitlab.example.com/tools/shop (fetch)\\n\"}"))));

    assertEquals(
        "The project's Git repository (remote): git@github.com:acme-corp/storefront-web.git, the"
            + " repository acme-corp/storefront-web on github.com;"
            + " https://gitlab.example.com/tools/shop, the repository tools/shop on"
            + " gitlab.example.com.",
        found.orElseThrow().content());
    assertEquals("the Git remote", found.orElseThrow().title());
  }

  private static Optional<ProjectSettings.Found> ran(String command, String output) {
    return ProjectSettings.of(ObservationView.of(stored(bash("v1", command, output))));
  }

  @Test
  void aVersionCommand_statesTheInstalledVersion_quotingTheLinesThatNameOne() {
    ProjectSettings.Found found =
        ran(
                "terraform version",
                "{\"stdout\":\"Terraform v1.7.5\\non linux_amd64\\n"
                    + "+ provider registry.terraform.io/hashicorp/aws v5.46.0\\n\"}")
            .orElseThrow();

    assertEquals(
        "The installed Terraform is version 1.7.5 (terraform version: Terraform v1.7.5; + provider"
            + " registry.terraform.io/hashicorp/aws v5.46.0).",
        found.content());
    assertEquals("the installed terraform version", found.title());
    assertEquals(List.of("terraform"), found.subjects());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "node -v|v20.11.1|The installed node is version 20.11.1 (node -v: v20.11.1).",
        "python3 --version|Python 3.12.1|The installed python3 is version 3.12.1 (python3"
            + " --version: Python 3.12.1).",
        "go version|go version go1.22.1 linux/amd64|The installed go is version 1.22.1 (go"
            + " version: go version go1.22.1 linux/amd64).",
        "docker --version|Docker version 25.0.3, build 4debf41|The installed Docker is version"
            + " 25.0.3 (docker --version: Docker version 25.0.3, build 4debf41)."
      })
  void commonVersionOutputs_giveTheirVersion(String command, String printed, String said) {
    assertEquals(said, ran(command, printed).orElseThrow().content());
  }

  @Test
  void aVersionPrintedOnStandardError_isRead() {
    assertEquals(
        "The installed java is version 17.0.9 (java -version: openjdk version \"17.0.9\""
            + " 2023-10-17).",
        ran(
                "java -version",
                "{\"stdout\":\"\",\"stderr\":\"openjdk version \\\"17.0.9\\\" 2023-10-17\\n\"}")
            .orElseThrow()
            .content());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "terraform version -json|Terraform v1.7.5",
        "node -v || echo none|v20.11.1",
        "go version && head go.mod|module example.com/app",
        "terraform plan|Plan: 1 to add, 0 to change, 0 to destroy.",
        "terraform version|no version here",
        "./configure --version|[redacted:token] 1.2.3",
        "'rm -rf /' -v|1.2.3",
        "ls -V|one two three 1.2.3"
      })
  void onlyACommandThatAsksForAVersion_andPrintsOne_isRestated(String command, String printed) {
    assertTrue(ran(command, printed).isEmpty(), command);
  }

  @Test
  void aVersionAskPipedOnward_isNotRestated() {
    assertTrue(ran("node -v | tee v.txt", "v20.11.1").isEmpty());
    assertTrue(ran("go version | cut -d' ' -f3 && head go.mod", "go1.22.4").isEmpty());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "go version && head -12 go.mod|go version go1.22.4 linux/amd64\\nmodule example.com/app\\n\\n"
            + "go 1.22\\nrequire github.com/google/go-cmp v0.6.0|The installed go is version 1.22.4 (go"
            + " version: go version go1.22.4 linux/amd64).",
        "java -version 2>&1; ./gradlew dependencyInsight --dependency jackson-databind|openjdk"
            + " version \"21.0.3\" 2024-04-16 LTS\\nOpenJDK Runtime Environment Temurin-21.0.3+9"
            + " (build 21.0.3+9-LTS)\\ncom.fasterxml.jackson.core:jackson-databind:2.17.2|The"
            + " installed java is version 21.0.3 (java -version 2>&1: openjdk version \"21.0.3\""
            + " 2024-04-16 LTS; OpenJDK Runtime Environment Temurin-21.0.3+9 (build 21.0.3+9-LTS)).",
        "xcodebuild -version && xcrun simctl list runtimes|Xcode 15.4\\nBuild version 15F31d\\n=="
            + " Runtimes ==\\niOS 17.5 (17.5 - 21F79)|The installed xcodebuild is version 15.4"
            + " (xcodebuild -version: Xcode 15.4; Build version 15F31d).",
        "cd app && node -v && npm -v|v20.11.1\\n10.2.4|The installed node is version 20.11.1 (node"
            + " -v: v20.11.1)."
      })
  void aChainThatStartsWithAVersionAsk_statesOnlyTheAsksOwnAnswer(
      String command, String printed, String said) {
    assertEquals(said, ran(command, printed.replace("\\n", "\n")).orElseThrow().content());
  }

  @Test
  void anElixirConfigFile_givesEachModulesSettings_underItsEnvironment() {
    String runtime =
        """
            30\tif config_env() == :prod do
            31\t  database_url =
            32\t    System.get_env("DATABASE_URL") ||
            33\t      raise "environment variable DATABASE_URL is missing."
            34\t
            35\t  config :shop, Shop.Repo,
            36\t    url: database_url,
            37\t    pool_size: String.to_integer(System.get_env("POOL_SIZE") || "10"),
            38\t    ssl: true
            39\t
            40\t  config :shop, Shop.Mailer,
            41\t    adapter: Swoosh.Adapters.Postmark,
            42\t    api_key: "pk-live-1234"
            43\tend
            44\t
            45\tconfig :logger, level: :info
            46\tconfig :shop, ShopWeb.Endpoint, url: [host: "shop.example.com", port: 443]
        """;

    assertEquals(
        "Settings in runtime.exs: prod shop repo ssl: true; prod shop mailer adapter:"
            + " Swoosh.Adapters.Postmark; logger level: info.",
        content("/home/dev/src/shop/config/runtime.exs", runtime));
  }

  @Test
  void anElixirScriptOutsideConfig_isNoSettingsFile() {
    assertTrue(
        ProjectSettings.read("/home/dev/src/shop/test/test_helper.exs", "config :shop, a: 1\n")
            .isEmpty());
  }

  @Test
  void aChainThatEndsWithAVersionAsk_statesTheLastLine_whenItIsThatAnswer() {
    assertEquals(
        "The installed rustc is version 1.78.0 (rustc --version: rustc 1.78.0 (9b00956e5"
            + " 2024-04-29)).",
        ran(
                "rustup override unset && rustc --version",
                "info: override toolchain for '/x' removed\nrustc 1.78.0 (9b00956e5 2024-04-29)\n")
            .orElseThrow()
            .content());
    assertEquals(
        "The installed node is version 20.11.1 (node -v: v20.11.1).",
        ran("nvm use && node -v", "Now using node v20.11.1 (npm v10.2.4)\nv20.11.1\n")
            .orElseThrow()
            .content());
    assertTrue(
        ran(
                "terraform init && terraform version",
                "Terraform v1.7.5\n+ provider registry.terraform.io/hashicorp/aws v5.46.0\n")
            .isEmpty());
  }

  private static List<String> allSaid(String command, String output) {
    return ProjectSettings.all(
            ObservationView.of(stored(bash("v1", command, output))), "/work/calc")
        .stream()
        .map(ProjectSettings.Found::content)
        .toList();
  }

  @Test
  void aChainThatEndsWithSeveralVersionAsks_statesEachAnswer() {
    assertEquals(
        List.of(
            "The installed pnpm is version 9.6.0 (pnpm -v: 9.6.0).",
            "The installed node is version 20.15.1 (node -v: v20.15.1)."),
        allSaid(
            "grep DATABASE_URL .env; node -v; pnpm -v",
            "DATABASE_URL=postgres://localhost:5433/potluck\nv20.15.1\n9.6.0\n"));
    assertEquals(
        List.of(
            "The installed node is version 20.11.1 (node -v: v20.11.1).",
            "The installed npm is version 10.2.4 (npm -v: 10.2.4)."),
        allSaid("cd app && node -v && npm -v", "v20.11.1\n10.2.4\n"));
    assertEquals(
        List.of(),
        allSaid("node -v; npm -v", "v20.11.1 (nightly build, see notes)\nmore notes\n10.2.4\n"),
        "an answer of more than a line leaves which line is whose unknown");
  }

  private static List<ProjectSettings.Found> readWith(String input, String lines) {
    return readWith(input, lines, "/work/calc");
  }

  private static List<ProjectSettings.Found> readWith(String input, String lines, String cwd) {
    return ProjectSettings.all(
        ObservationView.of(
            stored(
                observation(
                    "r1", LifecycleEventType.POST_TOOL_USE, EventData.tool("Read", input, lines)))),
        cwd);
  }

  @Test
  void aFileInADirectoryOfTheProject_isTitledByItsPathThere_oneAtTheTopByItsName() {
    String lines = "     1\tserver.port=8081\n     2\tspring.application.name=orders\n";
    assertEquals(
        List.of("services/api/application.properties"),
        titles(
            readWith("{\"file_path\":\"/work/calc/services/api/application.properties\"}", lines)));
    assertEquals(
        List.of("services/web/application.properties"),
        titles(readWith("{\"file_path\":\"./services/web/application.properties\"}", lines)),
        "a relative path is the project's already");
    assertEquals(
        List.of("application.properties"),
        titles(readWith("{\"file_path\":\"/work/calc/application.properties\"}", lines)));
    assertEquals(
        List.of("application.properties"),
        titles(readWith("{\"file_path\":\"/srv/other/conf/application.properties\"}", lines)),
        "outside the project");
    assertEquals(
        List.of("application.properties"),
        titles(readWith("{\"file_path\":\"/work/calc/api/application.properties\"}", lines, "")),
        "an absolute path in a session whose directory is not known");
    assertEquals(
        List.of("services/api/application.properties, the lines from 1"),
        titles(
            readWith(
                "{\"file_path\":\"/work/calc/services/api/application.properties\",\"offset\":1}",
                lines)));
  }

  @Test
  void projectPath_isTheRelativePathInsideADirectory_andNothingElse() {
    assertEquals("a/b.toml", ProjectSettings.projectPath("/work/calc/a/b.toml", "/work/calc/"));
    assertEquals("a/b.toml", ProjectSettings.projectPath("'./a/b.toml'", "/work/calc"));
    assertEquals(
        "a/b.toml", ProjectSettings.projectPath("C:\\work\\calc\\a\\b.toml", "C:\\work\\calc"));
    assertEquals("", ProjectSettings.projectPath("/work/calculator/a/b.toml", "/work/calc"));
    assertEquals("", ProjectSettings.projectPath("../shared/a/b.toml", "/work/calc"));
    assertEquals("", ProjectSettings.projectPath("~/.config/b.toml", "/work/calc"));
    assertEquals("", ProjectSettings.projectPath("b.toml", "/work/calc"));
    assertEquals("", ProjectSettings.projectPath("a/", "/work/calc"));
    assertEquals(
        "", ProjectSettings.projectPath("notes: old/b.toml", "/work/calc"), "would end a subject");
    String deep = "apps/" + "nested/".repeat(20) + "resources/config/application.yml";
    String kept = ProjectSettings.projectPath("/work/calc/" + deep, "/work/calc");
    assertTrue(kept.startsWith("…/") && deep.endsWith(kept.substring(2)), kept);
    assertTrue(kept.length() <= ProjectSettings.MAX_PLACE, kept);
    assertTrue(kept.endsWith("/resources/config/application.yml"), kept);
    assertEquals(
        "",
        ProjectSettings.projectPath("a/" + "x".repeat(200) + ".yml", "/work/calc"),
        "a file name longer than any place");
    String huge =
        ProjectSettings.projectPath(
            "/work/calc/" + "d/".repeat(5_000_000) + "app.yml", "/work/calc");
    assertTrue(huge.startsWith("…/d/") && huge.endsWith("/d/app.yml"), huge);
    assertTrue(huge.length() <= ProjectSettings.MAX_PLACE, huge);
  }

  private static List<String> titles(List<ProjectSettings.Found> found) {
    return found.stream().map(ProjectSettings.Found::title).toList();
  }

  @Test
  void aReadOfSomeOfAFilesLines_isTitledApartFromTheWholeFile_andKeptWhole() {
    String lines = "    40\tserver.port=8081\n    41\tspring.application.name=shop\n";
    String file = "\"/w/shop/application.properties\"";
    assertEquals(
        List.of(
            "application.properties, the lines from 40",
            "application.properties, its first 2 lines",
            "application.properties, some of its lines",
            "application.properties"),
        List.of(
                "{\"file_path\":" + file + ",\"offset\":40,\"limit\":2}",
                "{\"file_path\":" + file + ",\"limit\":2}",
                "{\"path\":" + file + ",\"view_range\":[40,41]}",
                "{\"file_path\":" + file + "}")
            .stream()
            .map(input -> readWith(input, lines).get(0).title())
            .toList());
    ProjectSettings.Found part =
        readWith("{\"file_path\":" + file + ",\"offset\":40}", lines).get(0);
    assertEquals(
        "Settings in application.properties: server port (server.port): 8081; spring application"
            + " name (spring.application.name): shop.",
        part.content());
    assertEquals(List.of(), part.settings(), "kept whole: no parts to retire the file's by");
  }

  @Test
  void aPush_statesTheRepositoryItWentTo() {
    String output =
        "remote: To create a merge request for fix/sort-order, visit:\nremote:  "
            + " https://gitlab.com/northwind-tools/gullwing/-/merge_requests/new?x=1\n"
            + "To gitlab.com:northwind-tools/gullwing.git\n * [new branch]      HEAD -> fix\n";

    ProjectSettings.Found found = ran("git push -u origin HEAD", output).orElseThrow();

    assertEquals(
        "The project's Git repository (remote): gitlab.com:northwind-tools/gullwing.git, the"
            + " repository northwind-tools/gullwing on gitlab.com.",
        found.content());
    assertEquals("the Git remote", found.title());
    assertEquals(
        "The project's Git repository (remote): https://github.com/acme/shop.git, the repository"
            + " acme/shop on github.com.",
        ran("git push", "To https://github.com/acme/shop.git\n   1a..2b  main -> main\n")
            .orElseThrow()
            .content());
    assertTrue(ran("git push && git push --tags", output).isEmpty());
    assertEquals(
        "The project's Git repository (remote): git@github.com:acme/shop.git, the repository"
            + " acme/shop on github.com.",
        ran(
                "git push",
                "{\"stdout\":\"\",\"stderr\":\"To git@github.com:acme/shop.git\\n   1a..2b  main"
                    + " -> main\\n\"}")
            .orElseThrow()
            .content(),
        "git prints where it pushed on standard error");
  }

  @Test
  void aGrepOfAConfigurationFile_statesTheSettingsOfTheLinesItPrinted() {
    ProjectSettings.Found found =
        ran("grep -w react-native package.json", "    \"react-native\": \"0.73.6\",\n")
            .orElseThrow();

    assertEquals("Settings in package.json: react native (react-native): 0.73.6.", found.content());
    assertEquals("package.json, the lines matching react-native", found.title());
    assertEquals("package.json", found.file());
    assertTrue(ran("grep -rn react package.json", "12:  \"react\": \"18.2.0\"").isEmpty());
    assertTrue(ran("grep react src/App.tsx", "import React from 'react';").isEmpty());
  }

  @Test
  void theEnvironmentFilteredByAPrefix_isStatedAsSettings_withoutItsSecrets() {
    String output =
        "RELAY_DELIVERY_TIMEOUT_MS=15000\nRELAY_MAX_PAYLOAD_BYTES=262144\n"
            + "RELAY_SIGNING_SECRET=abc123\n";

    assertEquals(
        "Environment variables (env | grep ^RELAY_ | sort): relay delivery timeout ms"
            + " (RELAY_DELIVERY_TIMEOUT_MS): 15000; relay max payload bytes"
            + " (RELAY_MAX_PAYLOAD_BYTES): 262144.",
        ran("env | grep ^RELAY_ | sort", output).orElseThrow().content());
    assertTrue(ran("env", output).isEmpty());
    assertTrue(ran("env | grep RELAY | head -1", output).isEmpty());
  }

  @Test
  void aVersionAskAfterChangingDirectory_isReadWhole() {
    assertEquals(
        "The installed Terraform is version 1.6.6 (terraform version: Terraform v1.6.6; +"
            + " provider registry.terraform.io/hashicorp/aws v5.31.0).",
        ran(
                "cd envs/prod && terraform version",
                "Terraform v1.6.6\non linux_amd64\n+ provider"
                    + " registry.terraform.io/hashicorp/aws v5.31.0\n")
            .orElseThrow()
            .content());
  }

  @Test
  void aChainedVersionAskThatPrintsOnStandardError_isRead() {
    assertEquals(
        "The installed java is version 17.0.9 (java -version: openjdk version \"17.0.9\""
            + " 2023-10-17).",
        ran(
                "java -version; ls",
                "{\"stdout\":\"build.gradle\\n\",\"stderr\":\"openjdk version \\\"17.0.9\\\""
                    + " 2023-10-17\\n\"}")
            .orElseThrow()
            .content());
  }

  @Test
  void aVerboseFlag_isReadAsAVersionQuestion_onlyWhenTheAnswerIsOneShortLine() {
    assertTrue(ran("ls -v", "notes-1.2.3.txt\nREADME.md\n").isEmpty());
    assertTrue(ran("ls -v", "release-notes-1.2.3.txt\n").isEmpty());
    assertEquals(
        "The installed node is version 20.11.1 (node -v: v20.11.1).",
        ran("node -v", "v20.11.1\n").orElseThrow().content());
  }

  @Test
  void aListingCommandsOutput_isRestatedThroughTheSameStage() {
    ProjectSettings.Found found =
        ran(
                "kubectl get ns",
                "{\"stdout\":\"NAME            STATUS   AGE\\npayments-prod   Active   201d\\n\"}")
            .orElseThrow();

    assertEquals("The Kubernetes namespaces (kubectl get): payments-prod.", found.content());
    assertEquals("the Kubernetes namespaces", found.title());
  }

  @Test
  void aHostileRemoteListing_givesNoRepository() {
    String hostile = "a".repeat(80_000) + "@" + "b".repeat(10_000);

    assertTrue(
        ProjectSettings.of(
                ObservationView.of(
                    stored(bash("g1", "git remote -v", "{\"stdout\":\"" + hostile + "\"}"))))
            .isEmpty());
  }

  @Test
  void aFailedRead_isNotRestated() {
    assertTrue(
        ProjectSettings.of(
                ObservationView.of(
                    stored(
                        observation(
                            "f1",
                            LifecycleEventType.TOOL_FAILURE,
                            EventData.tool(
                                "Bash",
                                "{\"command\":\"cat .nvmrc\"}",
                                "cat: .nvmrc: No such file or directory")))))
            .isEmpty());
  }

  @Test
  void aCoverageThreshold_isAStandingSetting_whetherTheRunMetItOrNot() {
    ProjectSettings.Found missed =
        ran(
                "yarn test --coverage",
                "PASS src/components/Cart.test.tsx\nAll files |   82.4  |   71.2  |\n"
                    + "Jest: \"global\" coverage threshold for lines (85%) not met: 82.4%\n")
            .orElseThrow();

    assertEquals(
        "The project's tests must reach a coverage threshold (yarn test --coverage): Jest:"
            + " \"global\" coverage threshold for lines (85%) not met: 82.4%.",
        missed.content());
    assertEquals("the coverage threshold", missed.title());
    assertEquals(List.of("coverage"), missed.subjects());

    assertEquals(
        "The project's tests must reach a coverage threshold (pytest --cov=app): Required test"
            + " coverage of 85% reached. Total coverage: 88.10%.",
        ran(
                "pytest --cov=app",
                "26 passed in 2.41s\nRequired test coverage of 85% reached. Total coverage:"
                    + " 88.10%\n")
            .orElseThrow()
            .content());
  }

  @Test
  void aRunWithoutAThreshold_orWithARedactedOne_statesNone() {
    assertTrue(ran("yarn test --coverage", "All files |   82.4  |   71.2  |\n").isEmpty());
    assertTrue(
        ran(
                "yarn test --coverage",
                "Jest: coverage threshold for lines (85%) not met: [redacted:token]\n")
            .isEmpty());
    String huge = "coverage threshold for ".repeat(4_000);
    ProjectSettings.Found bounded = ran("yarn test --coverage", huge).orElseThrow();
    assertTrue(bounded.content().length() < 600, "quoted lines are cut: " + bounded.content());
  }
}
