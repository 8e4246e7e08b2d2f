#pragma once

#include "run/verification.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ptowb {

// The keys of DESIGN §8: verdict, reason, rule, shape, dtype, metrics{...}, worst[...].
nlohmann::ordered_json comparisonJson(const Comparison& comparison, const Verdict& verdict);
nlohmann::ordered_json verificationJson(const VerificationReport& report);
// JUnit XML, as CI systems read it: a testsuite per op, a testcase per case and output.
std::string verificationJUnit(const VerificationReport& report);
// What a case of a target without values (pypto-sim) reports: "58002 cycles (pypto 0.2.0);
// pypto-sim produces no values, nothing compared".
std::string costOnlyLine(const VerificationReport& report, const CaseVerification& c);
// One line per case and output, for terminals.
std::string verificationSummary(const VerificationReport& report);

} // namespace ptowb
