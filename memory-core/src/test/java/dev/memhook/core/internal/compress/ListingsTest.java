package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Which listings are restated, and in what words. */
class ListingsTest {

  private static final String COMPOSE_PS =
      "NAME         IMAGE         COMMAND                  SERVICE   STATUS         PORTS\n"
          + "billing-db   postgres:16   \"docker-entrypoint.s…\"   db        Up 3 minutes  "
          + " 0.0.0.0:55432->5432/tcp, :::55432->5432/tcp\n"
          + "billing-mq   rabbitmq:3    \"docker-entrypoint.s…\"   mq        Up 3 minutes  "
          + " 0.0.0.0:5672->5672/tcp\n"
          + "billing-wk   worker:dev    \"java -jar app.jar\"      worker    Up 3 minutes  "
          + " 8080/tcp\n";

  @Test
  void composeServices_areStatedWithTheirImageAndPorts_hostPortFirst() {
    ProjectSettings.Found found = Listings.of("docker compose ps", COMPOSE_PS).orElseThrow();

    assertEquals(
        "The project's Docker Compose services and their ports (docker compose ps): db (container"
            + " billing-db, image postgres:16): host port 55432 to container port 5432/tcp; mq"
            + " (container billing-mq, image rabbitmq:3): host port 5672 to container port"
            + " 5672/tcp; worker (container billing-wk, image worker:dev): container port"
            + " 8080/tcp, not published.",
        found.content());
    assertEquals("the Docker Compose services", found.title());
    assertEquals(List.of("docker"), found.subjects());
    assertEquals(
        found.content(), Listings.of("docker-compose ps", COMPOSE_PS).orElseThrow().content());
  }

  @Test
  void dockerPs_namesEachContainer() {
    String columns = "%-15s%-14s%-25s%-14s%-13s%-25s%s%n";
    String ps =
        String.format(
                columns, "CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "PORTS", "NAMES")
            + String.format(
                columns,
                "4f1c2a9b8d7e",
                "redis:7",
                "\"docker-entrypoint.s…\"",
                "2 hours ago",
                "Up 2 hours",
                "0.0.0.0:6380->6379/tcp",
                "cache");

    assertEquals(
        "The running Docker containers and their ports (docker ps): cache (image redis:7): host"
            + " port 6380 to container port 6379/tcp.",
        Listings.of("docker ps", ps).orElseThrow().content());
  }

  @Test
  void dockerPsWithATableFormat_isReadByItsHeader_andOtherFormatsAreNot() {
    String ps =
        "NAMES          IMAGE           STATUS      PORTS\n"
            + "bramble-pg     postgres:16.2   Up 3 days   0.0.0.0:5433->5432/tcp\n"
            + "hopscotch-pg   postgres:15.6   Up 26 h     0.0.0.0:5432->5432/tcp\n";
    assertEquals(
        "The running Docker containers and their ports (docker ps): bramble-pg (image"
            + " postgres:16.2): host port 5433 to container port 5432/tcp; hopscotch-pg (image"
            + " postgres:15.6): host port 5432 to container port 5432/tcp.",
        Listings.of(
                "docker ps --format 'table {{.Names}}\\t{{.Image}}\\t{{.Status}}\\t{{.Ports}}'", ps)
            .orElseThrow()
            .content());
    assertTrue(
        Listings.of("docker ps --format '{{.Names}} {{.Ports}}'", "bramble-pg 0.0.0.0:5433\n")
            .isEmpty());
    assertTrue(Listings.of("docker ps --format 'table {{.Names}}' | grep pg", ps).isEmpty());
  }

  @Test
  void helmReleases_areStatedWithChartAndAppVersions_namespaceAndStatusWhenTheyTellSomething() {
    String columns = "%-14s%-14s%-10s%-37s%-10s%-22s%s%n";
    String table =
        String.format(
                columns,
                "NAME",
                "NAMESPACE",
                "REVISION",
                "UPDATED",
                "STATUS",
                "CHART",
                "APP VERSION")
            + String.format(
                columns,
                "cert-manager",
                "cert-manager",
                "3",
                "2024-03-19 14:22:07.731 +0000 UTC",
                "deployed",
                "cert-manager-v1.14.4",
                "v1.14.4")
            + String.format(
                columns,
                "edge",
                "proxy",
                "12",
                "2024-06-30 08:11:40.005 +0000 UTC",
                "failed",
                "nginx-0.9.0",
                "1.27.0");

    ProjectSettings.Found found = Listings.of("helm list -A", table).orElseThrow();

    assertEquals(
        "Helm releases installed (helm list): cert-manager chart v1.14.4 app v1.14.4; edge chart"
            + " nginx-0.9.0 app 1.27.0 (namespace proxy, failed).",
        found.content());
    assertEquals("the Helm releases", found.title());
    assertTrue(Listings.of("helm list --output json", table).isEmpty(), "another shape");
    assertTrue(Listings.of("helm history edge", table).isEmpty());
    assertTrue(
        Listings.of("helm list -A", table.replace("CHART", "THING")).isEmpty(), "no chart column");
  }

  @Test
  void lastingKubernetesObjects_areNamed_withTheirNamespace() {
    String ns =
        "NAME              STATUS   AGE\n"
            + "default           Active   412d\n"
            + "payments-prod     Active   201d\n";
    assertEquals(
        "The Kubernetes namespaces (kubectl get): default, payments-prod.",
        Listings.of("kubectl get ns", ns).orElseThrow().content());

    String deployments =
        "NAMESPACE       NAME          READY   UP-TO-DATE   AVAILABLE   AGE\n"
            + "payments-prod   billing-api   3/3     3            3           40d\n";
    ProjectSettings.Found found = Listings.of("kubectl get deploy -A", deployments).orElseThrow();
    assertEquals(
        "The Kubernetes deployments (kubectl get): billing-api (namespace payments-prod).",
        found.content());
    assertEquals("the Kubernetes deployments", found.title());
  }

  @Test
  void committersToAPath_areStated_mostFirst() {
    String shortlog = "    48\tKenji Watanabe\n     6\tLena Kowalski\n     1\tdependabot[bot]\n";

    ProjectSettings.Found found =
        Listings.of("git shortlog -sn -- src/main/java/dev/acme/billing/tax", shortlog)
            .orElseThrow();

    assertEquals(
        "Who committed most to src/main/java/dev/acme/billing/tax (git shortlog), and so knows it"
            + " best: Kenji Watanabe (48 commits), Lena Kowalski (6 commits), dependabot[bot] (1"
            + " commit).",
        found.content());
    assertEquals("the committers of src/main/java/dev/acme/billing/tax", found.title());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "kubectl get pods",
        "kubectl get ns -o yaml",
        "kubectl get ns | grep prod",
        "docker compose ps --format json",
        "docker compose logs",
        "git shortlog",
        "git log --oneline",
        "ls -la"
      })
  void otherCommands_areNotListingsRestated(String command) {
    assertTrue(Listings.of(command, COMPOSE_PS).isEmpty(), command);
  }

  @Test
  void aRowTheSanitizerRedacted_isLeftOut_andATableOfNothingGivesNothing() {
    String ns = "NAME     STATUS   AGE\n[redacted:token]   Active   2d\nweb-prod   Active   9d\n";
    assertEquals(
        "The Kubernetes namespaces (kubectl get): web-prod.",
        Listings.of("kubectl get ns", ns).orElseThrow().content());

    assertTrue(Listings.of("kubectl get ns", "No resources found\n").isEmpty());
    assertTrue(Listings.of("kubectl get ns", "NAME   STATUS   AGE\n").isEmpty());
    assertTrue(Listings.of("docker compose ps", "error during connect: daemon down\n").isEmpty());
  }

  @Test
  void aHugeOrHostileListing_isReadBoundedly() {
    StringBuilder rows = new StringBuilder("NAME   STATUS   AGE\n");
    for (int i = 0; rows.length() < 5_000_000; i++) {
      rows.append("ns-").append(i).append("   Active   1d\n");
    }
    String said = Listings.of("kubectl get ns", rows.toString()).orElseThrow().content();
    assertEquals(Listings.MAX_ROWS, said.split(", ").length, said);

    String wide = "A  ".repeat(2_000_000);
    assertTrue(Listings.of("kubectl get ns", wide + "\nx\n").isEmpty());
    assertTrue(Listings.of("git shortlog -sn", "\t".repeat(1_000_000)).isEmpty());
  }
}
