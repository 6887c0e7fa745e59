package dev.fsm.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.UsageException;
import dev.fsm.store.StoreLocation;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Store URLs as users write them, and the mistakes they make. */
class PgUrlTest {

  private static final Map<String, String> NO_ENV = Map.of();

  @Test
  void aFullUrlGivesEveryPartPercentDecoded() {
    PgUrl url = PgUrl.parse("postgresql://ann%40corp:p%40ss%3Aw0rd@db.example:6543/my%20db"
        + "?schema=orders&sslmode=require&connectTimeout=3", NO_ENV);
    assertThat(url.host()).isEqualTo("db.example");
    assertThat(url.port()).isEqualTo(6543);
    assertThat(url.database()).isEqualTo("my db");
    assertThat(url.user()).isEqualTo("ann@corp");
    assertThat(url.password()).isEqualTo("p@ss:w0rd");
    assertThat(url.schema()).isEqualTo("orders");
    assertThat(url.parameters()).containsExactlyInAnyOrderEntriesOf(
        Map.of("sslmode", "require", "connectTimeout", "3"));
    assertThat(url.where()).isEqualTo("db.example:6543/my db");
    assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/my+db");
    Properties p = url.properties(5);
    assertThat(p).containsEntry("user", "ann@corp").containsEntry("password", "p@ss:w0rd")
        .containsEntry("sslmode", "require").containsEntry("connectTimeout", "3")
        .containsEntry("ApplicationName", "fsm");
  }

  @Test
  void defaultsComeFromLibpqsPlaces() {
    PgUrl url = PgUrl.parse("postgres://localhost/app", Map.of("PGUSER", "bob",
        "PGPASSWORD", "from-env"));
    assertThat(url.port()).isEqualTo(5432);
    assertThat(url.schema()).isEqualTo("fsm");
    assertThat(url.user()).isEqualTo("bob");
    assertThat(url.password()).isEqualTo("from-env");
    assertThat(url.properties(5)).containsEntry("connectTimeout", "5");

    PgUrl plain = PgUrl.parse("postgresql://localhost/app", NO_ENV);
    assertThat(plain.user()).isEqualTo(System.getProperty("user.name"));
    assertThat(plain.password()).as("left to the driver's ~/.pgpass").isNull();
    assertThat(plain.properties(5)).doesNotContainKey("password");
  }

  @Test
  void ipv6HostsAreInBrackets() {
    PgUrl url = PgUrl.parse("postgresql://u@[::1]:5433/app", NO_ENV);
    assertThat(url.host()).isEqualTo("::1");
    assertThat(url.port()).isEqualTo(5433);
    assertThat(url.where()).isEqualTo("[::1]:5433/app");
    assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://[::1]:5433/app");
    assertThat(PgUrl.parse("postgresql://[fe80::2]/app", NO_ENV).port()).isEqualTo(5432);
  }

  @Test
  void malformedUrlsAreUsageErrorsNamingStoreAndWhatIsWrong() {
    assertBad("postgresql:///app", "names no host");
    assertBad("postgresql://h", "names no database");
    assertBad("postgresql://h/", "names no database");
    assertBad("postgresql://h:0/app", "the port `0`");
    assertBad("postgresql://h:65536/app", "the port `65536`");
    assertBad("postgresql://h:54x/app", "the port `54x`");
    assertBad("postgresql://h:+54/app", "the port `+54`");
    assertBad("postgresql://[::1/app", "has no ]");
    assertBad("postgresql://[::1]x/app", "not :PORT");
    assertBad("postgresql://h1,h2/app", "several hosts");
    assertBad("postgresql://h/app?schema=Orders", "the schema `Orders` is not a plain");
    assertBad("postgresql://h/app?schema=1st", "the schema `1st`");
    assertBad("postgresql://h/app?schema=", "the schema ``");
    assertBad("postgresql://h/app?schema=a%22b", "the schema `a\"b`");
    assertBad("postgresql://h/app?schema=" + "s".repeat(64), "at most 63");
    assertBad("postgresql://h/app?sslmdoe=require", "the parameter `sslmdoe`");
    assertBad("postgresql://h/a%zzb", "not followed by two hex digits");
    assertBad("postgresql://h/app?schema=a&schema=b", "the parameter `schema` is given twice");
  }

  @Test
  void aPasswordIsNeverShown() {
    assertThatThrownBy(() -> PgUrl.parse("postgresql://ann:s3cret@h:99999/app", NO_ENV))
        .isInstanceOf(UsageException.class)
        .hasMessage("--store postgresql://ann:***@h:99999/app: the port `99999` is not a number"
            + " from 1 to 65535")
        .hasMessageNotContaining("s3cret");
    assertThatThrownBy(() -> PgUrl.parse("postgresql://ann:s3%zzcret@h/app", NO_ENV))
        .hasMessageNotContaining("s3");
    assertThatThrownBy(() -> PgUrl.parse("postgresql://h/app?password=s3cret&x=1", NO_ENV))
        .hasMessageContaining("password=***&x=1").hasMessageNotContaining("s3cret");
    PgUrl url = PgUrl.parse("postgresql://ann:s3cret@h/app", NO_ENV);
    assertThat(url.toString()).doesNotContain("s3cret");
    assertThat(new StoreLocation.Database("postgres://ann:s3cret@h/app").text())
        .isEqualTo("postgres://ann:***@h/app");
    assertThat(new StoreLocation.Database("postgres://ann@h/app?password=x&schema=s").text())
        .isEqualTo("postgres://ann@h/app?password=***&schema=s");
  }

  @Test
  void aPasswordWithAnAtSlashOrQuestionMarkNotEncodedIsNeverShownEvenInPart() {
    for (String url : List.of("postgresql://pwuser:se@k:ret/x%@127.0.0.1:55499/fsm",
        "postgresql://pwuser:se@kret@127.0.0.1/fsm/x@y", "postgresql://pwuser:pa?ss@h/app",
        "postgresql://pwuser:a/b@c@h/app")) {
      assertThatThrownBy(() -> PgUrl.parse(url, NO_ENV)).as(url)
          .isInstanceOf(UsageException.class)
          .hasMessageStartingWith("--store postgresql://pwuser:***@")
          .hasMessageNotContaining("ret").hasMessageNotContaining("ss@")
          .hasMessageNotContaining("a/b");
    }
    assertThatThrownBy(() -> PgUrl.parse("postgresql://u:se@k:ret/x%@h/db", NO_ENV))
        .hasMessageEndingWith("an @ comes after the host; write @, / and ? in a user name or"
            + " password percent-encoded (%40, %2F, %3F)");
    assertThat(PgUrl.parse("postgresql://u:se%40k%3Aret%2Fx%25@h/db", NO_ENV).password())
        .isEqualTo("se@k:ret/x%");
    assertThat(PgUrl.parse("postgresql://h/db?ApplicationName=me@host", NO_ENV).parameters())
        .containsEntry("ApplicationName", "me@host");
  }

  @Test
  void aPasswordParameterWorksLikeTheUserPart() {
    PgUrl url = PgUrl.parse("postgresql://h/app?user=carl&password=pw", NO_ENV);
    assertThat(url.user()).isEqualTo("carl");
    assertThat(url.password()).isEqualTo("pw");
    assertThat(url.parameters()).isEmpty();
  }

  private static void assertBad(String text, String what) {
    assertThatThrownBy(() -> PgUrl.parse(text, NO_ENV)).as(text)
        .isInstanceOf(UsageException.class)
        .hasMessageStartingWith("--store ")
        .hasMessageContaining(what);
  }
}
