node -e 'require("fs").writeFileSync(process.env.CHRYS_HOOK_RESULT, JSON.stringify({context: [{text: "x".repeat(2 << 20)}]}))'
