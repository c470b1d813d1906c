package dev.memhook.core.internal.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TerraformOutputsTest {

  private static Optional<ProjectSettings.Found> listed(String command, String output) {
    return Listings.of(command, output);
  }

  @Test
  void eachOutput_isStatedWithItsNameInWords_itsValue_andWhatKindOfValueItIs() {
    String output =
        """
        alb_dns_name = "shop-prod-alb-17.eu-central-1.elb.amazonaws.com"
        bastion_public_ip = "3.121.44.87"
        cluster_name = "prod"
        private_subnet_ids = [
          "subnet-0a1",
          "subnet-0b2",
        ]
        db_endpoint = "shop-prod.c1.eu-central-1.rds.amazonaws.com:5432"
        db_password = <sensitive>
        tags = {
          "team" = "core"
        }
        site_url = "https://shop.example.com"
        """;

    ProjectSettings.Found found = listed("terraform -chdir=envs/prod output", output).orElseThrow();

    assertEquals(
        "The Terraform outputs of envs/prod, what the deployment exposes (terraform"
            + " -chdir=envs/prod output): alb dns name (alb_dns_name) ="
            + " shop-prod-alb-17.eu-central-1.elb.amazonaws.com, a hostname; bastion public ip"
            + " (bastion_public_ip) = 3.121.44.87, an IP address; cluster name (cluster_name) ="
            + " prod; private subnet ids (private_subnet_ids) = subnet-0a1, subnet-0b2; db"
            + " endpoint (db_endpoint) = shop-prod.c1.eu-central-1.rds.amazonaws.com:5432, a"
            + " hostname and port; site url (site_url) = https://shop.example.com, a URL.",
        found.content());
    assertEquals("the Terraform outputs of envs/prod", found.title());
    assertEquals(List.of("terraform"), found.subjects());
  }

  @Test
  void theJsonFormat_givesTheSameOutputs_andLeavesSensitiveOnesOut() {
    String output =
        """
        {
          "alb_dns_name": {"sensitive": false, "type": "string", "value": "alb-1.elb.amazonaws.com"},
          "db_password": {"sensitive": true, "type": "string", "value": "hunter2"},
          "subnets": {"sensitive": false, "type": ["list", "string"], "value": ["subnet-1", "subnet-2"]},
          "port": {"sensitive": false, "type": "number", "value": 8080}
        }
        """;

    assertEquals(
        "The Terraform outputs, what the deployment exposes (tofu output -json): alb dns name"
            + " (alb_dns_name) = alb-1.elb.amazonaws.com, a hostname; subnets = subnet-1, subnet-2;"
            + " port = 8080.",
        listed("tofu output -json", output).orElseThrow().content());
  }

  @Test
  void aListOfObjects_isLeftOutWhole_andTheOutputsAfterItAreRead() {
    String output =
        """
        endpoints = [
          {
            "host" = "a.example.com"
            "ports" = [
              80,
            ]
          },
        ]
        region = "eu-central-1"
        """;

    assertEquals(
        "The Terraform outputs, what the deployment exposes (terraform output): region ="
            + " eu-central-1.",
        listed("terraform output", output).orElseThrow().content());
  }

  @Test
  void anOutputTheSanitizerTouched_isLeftOut() {
    String output = "api_token = \"[redacted:token]\"\nregion = \"eu-central-1\"\n";

    assertEquals(
        "The Terraform outputs, what the deployment exposes (terraform output): region ="
            + " eu-central-1.",
        listed("terraform output", output).orElseThrow().content());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "terraform output -raw alb_dns_name|alb-1.elb.amazonaws.com",
        "terraform plan|Plan: 1 to add",
        "terraform output|No outputs found.",
        "terraform output -json|{not json",
        "terraform output -json|[1, 2]"
      })
  void anythingButTheOutputsListedWhole_isNotRestated(String command, String output) {
    assertTrue(listed(command, output).isEmpty(), command);
  }

  @Test
  void filteredOutputs_areNotRestated() {
    assertTrue(listed("terraform output | grep alb", "alb_dns_name = \"x.example.com\"").isEmpty());
  }

  @Test
  void aHugeOrUnclosedOutput_costsABoundedScan() {
    assertEquals(
        "The Terraform outputs, what the deployment exposes (terraform output): xs = a, a, a, a.",
        listed("terraform output", "xs = [\n" + "  \"a\",\n".repeat(2_000_000))
            .orElseThrow()
            .content());
    String many = "";
    for (int i = 0; i < 100; i++) {
      many += "out_" + i + " = \"v" + i + "\"\n";
    }
    String content = listed("terraform output", many).orElseThrow().content();
    assertEquals(Listings.MAX_ROWS, content.split("; ").length, content);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "db.internal.example.com|a hostname",
        "localhost|''",
        "10.0.0.1:6379|an IP address and port",
        "999.1|''",
        "prod|''"
      })
  void theKindOfAValue_isSaidOnlyWhenItsShapeShowsIt(String value, String kind) {
    assertEquals(kind, TerraformOutputs.kind(value));
  }
}
