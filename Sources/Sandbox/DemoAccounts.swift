/// The demo accounts every profile seeds. Hashes are bcrypt (cost 10),
/// computed once and written here so start-up does not pay for hashing.
enum DemoAccounts {
    struct Account {
        let email: String
        let name: String
        let passwordHash: String
    }

    static let alice = Account(email: "alice@example.com", name: "alice",
                               passwordHash: "$2b$10$GxBmn/HkOMWeL04j9.LOk.XX4QDN60Gv0UNr7ER/oPPC4pB3RzpNC")   // alice123
    static let bob = Account(email: "bob@example.com", name: "bob",
                             passwordHash: "$2b$10$CFWtZDvBOS4AXgIlIeCieebwzw8OUxm.h7vv8WmwsWwI5z/GjSlsC")     // bob12345
    /// Level Up Solo's documented demo account (seed 004).
    static let levelUpDemo = Account(email: "demo@levelupsolo.net", name: "Demo",
                                     passwordHash: "$2b$10$IBmzBK7/YaJIaABXtC6BPe3F0dts3pZ7zkmlyIK4GaaqQm.c8GMni")  // demo1234
}
