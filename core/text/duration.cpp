#include "text/duration.h"

#include <cmath>
#include <cstdio>

namespace ptowb {

std::string formatDuration(double seconds)
{
    struct Unit
    {
        double scale;
        const char* name;
    };
    static const Unit kUnits[] = {{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}};
    if (!std::isfinite(seconds)) return "?";
    const Unit* unit = &kUnits[3];
    for (const Unit& u : kUnits)
        if (std::fabs(seconds) >= u.scale) {
            unit = &u;
            break;
        }
    const double value = seconds / unit->scale;
    const int decimals = std::fabs(value) >= 100 || unit->scale == 1e-9 ? 0
                         : std::fabs(value) >= 10                       ? 1
                                                                        : 2;
    char text[48];
    std::snprintf(text, sizeof text, "%.*f %s", decimals, value, unit->name);
    return text;
}

} // namespace ptowb
