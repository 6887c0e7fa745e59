package dev.fsm.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.UsageException;
import org.junit.jupiter.api.Test;

class MetricsAddressTest {

  @Test
  void hostAndPortEveryInterfaceAndBracketedIpv6AreRead() {
    assertThat(MetricsAddress.parse("127.0.0.1:9464"))
        .isEqualTo(new MetricsAddress("127.0.0.1", 9464));
    assertThat(MetricsAddress.parse(":9464")).isEqualTo(new MetricsAddress("", 9464));
    assertThat(MetricsAddress.parse("localhost:0")).isEqualTo(new MetricsAddress("localhost", 0));
    assertThat(MetricsAddress.parse("[::1]:9464")).isEqualTo(new MetricsAddress("::1", 9464));
    assertThat(MetricsAddress.parse("[::1]:9464").text()).isEqualTo("[::1]:9464");
    assertThat(MetricsAddress.parse(":9464").text()).isEqualTo(":9464");
  }

  @Test
  void malformedAddressesAreUsageErrorsNamingTheOptionAndTheForm() {
    assertThatThrownBy(() -> MetricsAddress.parse("9464"))
        .isInstanceOf(UsageException.class)
        .hasMessage("--metrics 9464: no port; give HOST:PORT, such as 127.0.0.1:9464, or :9464"
            + " for every interface (port 0: any free port)");
    assertThatThrownBy(() -> MetricsAddress.parse(""))
        .isInstanceOf(UsageException.class)
        .hasMessage("--metrics needs HOST:PORT, such as 127.0.0.1:9464, or :9464 for every"
            + " interface (port 0: any free port)");
    assertThatThrownBy(() -> MetricsAddress.parse("localhost:"))
        .hasMessageStartingWith("--metrics localhost:: `` is not a port number");
    assertThatThrownBy(() -> MetricsAddress.parse("localhost:http"))
        .hasMessageStartingWith("--metrics localhost:http: `http` is not a port number");
    assertThatThrownBy(() -> MetricsAddress.parse("localhost:70000"))
        .hasMessageStartingWith("--metrics localhost:70000: port 70000 is over 65535");
    assertThatThrownBy(() -> MetricsAddress.parse("localhost:-1"))
        .hasMessageStartingWith("--metrics localhost:-1: `-1` is not a port number");
    assertThatThrownBy(() -> MetricsAddress.parse("::1:9464"))
        .hasMessageContaining("an IPv6 address goes in brackets, as in [::1]:9464");
    assertThatThrownBy(() -> MetricsAddress.parse("[::1:9464"))
        .hasMessageContaining("an IPv6 address goes in brackets");
    assertThatThrownBy(() -> MetricsAddress.parse("http://host:9464/metrics"))
        .isInstanceOf(UsageException.class)
        .hasMessageStartingWith("--metrics http://host:9464/metrics: no scheme or path: metrics"
            + " are always served at /metrics; give HOST:PORT");
    assertThatThrownBy(() -> MetricsAddress.parse("my host:9464"))
        .hasMessageContaining("`my host` is not a host name or address");
  }
}
