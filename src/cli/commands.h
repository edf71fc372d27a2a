// One function per subcommand, each in its own cmd_<name>.cc. Each receives
// argv with argv[0] = "cronista <name>" and returns the process exit code.
#pragma once

namespace cronista::cli {

int cmd_tag(int argc, char** argv);
int cmd_segment(int argc, char** argv);
int cmd_learn(int argc, char** argv);
int cmd_crawl(int argc, char** argv);
int cmd_build(int argc, char** argv);
int cmd_report(int argc, char** argv);
int cmd_export(int argc, char** argv);
int cmd_eval_tagger(int argc, char** argv);
int cmd_eval_crawl(int argc, char** argv);
int cmd_eval_revisit(int argc, char** argv);
int cmd_eval_rate_prior(int argc, char** argv);
int cmd_sample_web(int argc, char** argv);
int cmd_replicas(int argc, char** argv);
int cmd_eval_replicas(int argc, char** argv);

}  // namespace cronista::cli
