package dev.fsm.cli.common;

/** A verb that runs until stopped ({@code watch}, {@code tail}); the shell hands it its Ctrl-C. */
public interface LiveView {

  /** Stop when {@code stop} fires, instead of when the process is interrupted. */
  void stopOn(StopSignal stop);
}
