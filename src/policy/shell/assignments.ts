// Variables that choose which program runs or what it runs: setting one (`PATH=. ls`,
// `export BASH_ENV=x`, `env LD_PRELOAD=… ls`, `GIT_SSH_COMMAND=… git fetch`, `PAGER=… man ls`)
// makes the commands after it run programs pith cannot name.
const EXEC_VARIABLE =
  /^(PATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|PS[0-4]|PROMPT_COMMAND|IFS|FPATH|ZDOTDIR|SHELL|BASH_FUNC_.*|LD_\w+|DYLD_\w+|GIT_(SSH\w*|EXTERNAL_DIFF|PAGER|EDITOR|SEQUENCE_EDITOR|ASKPASS|EXEC_PATH|CONFIG_PARAMETERS|CONFIG_COUNT|CONFIG_KEY_\d+|CONFIG_VALUE_\d+|PROXY_COMMAND)|\w*PAGER|\w*EDITOR|VISUAL|BROWSER|LESS\w*|\w*ASKPASS|NODE_OPTIONS|NPM_CONFIG_\w+|npm_config_\w+|PYTHONINSPECT|PYTHONSTARTUP|PYTHONHOME|PERL5OPT|PERL5DB|PERLDB_OPTS|RUBYOPT|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|MAKE\w*|MFLAGS|\w*_RSH|TAR_OPTIONS)$/;

/** True when setting `name` cannot change which program a command runs. */
export function harmlessVariable(name: string): boolean {
  return !EXEC_VARIABLE.test(name);
}
