package dev.fsm.bench;

/** Told how a benchmark run goes, to show it; called from the benchmark's own thread. */
public interface BenchListener {

  /** Nobody is listening. */
  BenchListener NONE = new BenchListener() {
    @Override
    public void phase(String what) {}

    @Override
    public void progress(String what, long done, long total) {}
  };

  /** A phase starts, e.g. {@code bare log, 4 writers}. */
  void phase(String what);

  /** Part of a long phase is done, e.g. tasks created so far; called once at the end too. */
  void progress(String what, long done, long total);
}
