package dev.fsm.cli.verb.init;

/** The files {@code fsm init} writes: one commented machine and the script of its action. */
final class Scaffold {

  /** The machine's name, as {@code fsm start} takes it. */
  static final String MACHINE = "hello";

  /** The machine file, relative to the machines folder. */
  static final String MACHINE_FILE = "hello.yaml";

  /** The action's script, relative to the machines folder. */
  static final String SCRIPT_FILE = "scripts/greet.sh";

  /** A context the example's first task can start with. */
  static final String CONTEXT = "{\"name\": \"Ada\"}";

  static final String MACHINE_TEXT = """
      # hello: a first machine, made by `fsm init`. Change it, or copy it to start your own;
      # `fsm validate` checks it and says what is wrong and where.
      #
      #   fsm start hello --context '{"name": "Ada"}'   # a task: prints its id
      #   fsm run --until-idle                          # runs tasks until none is left to run
      #   fsm show ID                                   # its status, state, context and history
      #
      machine: hello                  # the name `fsm start` takes: lower case, digits, - and _
      description: Greets someone by name; a task with no name ends as skipped
      initial: greet                  # where tasks start (default: the first state listed)
      defaults:                       # what every state has unless it says otherwise
        timeout: 30s                  # a longer attempt is stopped and counts as an error
      states:
        greet:
          run: scripts/greet.sh       # a program, relative to this file's folder
          retry: {max_errors: 3, window: 1h, backoff: 5s}   # the 3rd error in 1h fails the task
          on:                         # the event the program reports -> the next state
            ok: done
            no_name: skipped
        done: {final: completed}      # a final state: the task ends, completed
        skipped: {final: failed}      # another: the task ends, failed
      """;

  static final String SCRIPT_TEXT = """
      #!/usr/bin/env bash
      # The action of state `greet` in hello.yaml, made by `fsm init`.
      #
      # fsm runs it with the task as JSON on stdin,
      #   {"id": ..., "machine": "hello", "version": 1, "state": "greet", "attempt": 1,
      #    "context": {"name": "Ada"}}
      # and FSM_TASK_ID, FSM_MACHINE, FSM_STATE and FSM_ATTEMPT in the environment. The last
      # line on stdout, when it is a JSON object, is the result: {"event": "ok", "context": {...}}
      # (the context is merged into the task's). With no such line, exit 0 means event `ok`;
      # any other exit status is an error, retried as the state's `retry:` says, and the end of
      # stderr is its message.
      set -euo pipefail

      input=$(cat)
      # The context's "name". A real action would use jq, or its language's JSON library.
      name=""
      if [[ $input =~ \\"name\\"[[:space:]]*:[[:space:]]*\\"([^\\"\\\\]*)\\" ]]; then
        name=${BASH_REMATCH[1]}
      fi
      if [[ -z $name ]]; then
        echo '{"event": "no_name"}'
        exit 0
      fi
      echo "greeting $name" >&2
      printf '{"event": "ok", "context": {"greeting": "Hello, %s!"}}\\n' "$name"
      """;

  private Scaffold() {}
}
