import Core
import Testing

/// The catalog's types, checked before a body is sent (issue 14, "Types before sending").
@Suite struct BodyCheckTests {
    let endpoint = Endpoint("POST", "/api/tasks", "Post a task", body: Model("TaskCreate", [
        Field("title", .string), Field("price", .number), Field("urgent", .boolean, required: false),
        Field("tags", .array(.string), required: false), Field("status", .enumeration("Status", ["open", "done"]), required: false),
        .optional("note", .string),
    ]))

    @Test func stringsWhereTheCatalogWantsOtherKindsAreNamedWithTheFix() {
        let problems = endpoint.bodyProblems(in: [.stringField(name: "price", value: "25"), .stringField(name: "urgent", value: "true"),
                                                  .stringField(name: "tags", value: #"["a"]"#), .stringField(name: "tags", value: "a"),
                                                  .stringField(name: "price", value: "abc")])
        #expect(problems == [
            #"price is a number in POST /api/tasks, but price=25 sends the string "25": use price:=25"#,
            #"urgent is a boolean in POST /api/tasks, but urgent=true sends the string "true": use urgent:=true"#,
            #"tags is an array ([string]) in POST /api/tasks, but tags=["a"] sends the string "["a"]": use tags:=["a"]"#,
            // `:=` is suggested only where it sends the right kind: `tags:=a` and `price:=abc` are not JSON.
            #"tags is an array ([string]) in POST /api/tasks, but tags=a sends the string "a", and "a" is not one"#,
            #"price is a number in POST /api/tasks, but price=abc sends the string "abc", and "abc" is not one"#,
        ])
    }

    /// `get /api/tasks city=London` went as a GET with a JSON body, and the whole list came back unfiltered.
    @Test func aQueryParameterGivenAsAFieldIsNamedWithTheFix() {
        let list = Endpoint("GET", "/api/tasks", "List tasks", query: ["city", "page"])
        #expect(list.bodyProblems(in: [.stringField(name: "city", value: "London"), .stringField(name: "other", value: "x"),
                                       .query(name: "page", value: "2")])
            == ["city is a query parameter of GET /api/tasks, but city=London sends it in a JSON body: use city==London"])
    }

    /// A form's or multipart body's fields are all text: `--form urgent=true` was refused as a string for a boolean,
    /// and its `urgent:=true` refused as no form field, so only --force sent it. An enumeration's values still count.
    @Test func aFormsFieldsAreTextAndOnlyTheirEnumerationsAreChecked() {
        let items: [RequestItem] = [.stringField(name: "price", value: "25"), .stringField(name: "urgent", value: "true"),
                                    .stringField(name: "status", value: "closed")]
        #expect(endpoint.bodyProblems(in: items, textFields: true) == [#"status in POST /api/tasks is one of open|done, not "closed""#])
        #expect(endpoint.bodyProblems(in: items).count == 3)
    }

    /// Nested items were not checked: `dims[width]=3` sent "3" to an integer, `tags[]:=5` a number into strings.
    @Test func nestedItemsAreCheckedAgainstTheFieldTheirPathLeadsTo() {
        let dimensions = Model("Dimensions", [Field("width", .integer), Field("unit", .enumeration("Unit", ["cm", "in"]))])
        let item = Endpoint("POST", "/items", "", body: Model("ItemCreate", [Field("dims", .model("Dimensions")), Field("tags", .array(.string)),
                                                                             Field("rows", .array(.model("Dimensions")))]))
        let problems = item.bodyProblems(in: [.stringField(name: "dims[width]", value: "3"), .jsonField(name: "tags[]", value: .number("5")),
                                              .stringField(name: "rows[0][unit]", value: "mm"), .jsonField(name: "dims[width]", value: .number("3")),
                                              .stringField(name: "tags[0]", value: "ok"), .stringField(name: "dims[other]", value: "x")],
                                         models: { $0 == "Dimensions" ? dimensions : nil })
        #expect(problems == [
            #"dims[width] is an integer in POST /items, but dims[width]=3 sends the string "3": use dims[width]:=3"#,
            "tags[] is a string in POST /items, but tags[]:=5 sends a number: use tags[]=5",
            #"rows[0][unit] in POST /items is one of cm|in, not "mm""#,
        ])
        #expect(item.bodyProblems(in: [.stringField(name: "dims[width]", value: "3")]).isEmpty, "a model it cannot find: not checked")
    }

    @Test func otherKindsWhereTheCatalogWantsAStringAndUnlistedEnumValues() {
        #expect(endpoint.bodyProblems(in: [.jsonField(name: "title", value: .number("5")), .stringField(name: "status", value: "closed")]) == [
            "title is a string in POST /api/tasks, but title:=5 sends a number: use title=5",
            #"status in POST /api/tasks is one of open|done, not "closed""#,
        ])
        // Null where the catalog does not allow it: said, without advising `title=null` (the string "null").
        #expect(endpoint.bodyProblems(in: [.jsonField(name: "title", value: .null)])
            == ["title in POST /api/tasks is a string the catalog does not say may be null"])
    }

    /// `price:=null` for a number, `tags:='[1]'` for a list of strings: sent,
    /// where only a string's null and an array's own kind were looked at.
    @Test func nullOfAnyTypeAndTheElementsOfAnArrayAreChecked() {
        let typed = Endpoint("POST", "/books", "Add", body: Model("Book", [
            Field("price", .number, required: true, nullable: false), Field("tags", .array(.string), required: false, nullable: false),
            Field("ids", .array(.integer), required: false, nullable: false),
        ]))
        #expect(typed.bodyProblems(in: [.jsonField(name: "price", value: .null), .jsonField(name: "tags", value: .array([.string("a"), .number("1")])),
                                        .jsonField(name: "ids", value: .array([.number("1"), .number("2.5")])),
                                        .jsonField(name: "tags", value: .array([.string("a")]))]) == [
            "price in POST /books is a number the catalog does not say may be null",
            #"tags is an array ([string]) in POST /books, but tags:=["a",1] holds a number"#,
            "ids is an array ([integer]) in POST /books, but ids:=[1,2.5] holds a number that is not whole",
        ])
    }

    /// `:=` values of another kind than the catalog's: `expReward:=2.5` for an integer was sent, and refused there.
    @Test func jsonValuesOfAnotherKindAreNamed() {
        let counted = Endpoint("PATCH", "/api/tasks/{id}", "Edit", body: Model("TaskEdit", [
            .optional("reward", .integer), .optional("urgent", .boolean), .optional("price", .number), .optional("tags", .array(.string)),
        ]))
        #expect(counted.bodyProblems(in: [.jsonField(name: "reward", value: .number("2.5")), .jsonField(name: "urgent", value: .number("1")),
                                          .jsonField(name: "tags", value: .object([])), .jsonField(name: "reward", value: .number("3")),
                                          .jsonField(name: "price", value: .number("2.5")), .jsonField(name: "reward", value: .null)]) == [
            "reward is an integer in PATCH /api/tasks/{id}, but reward:=2.5 sends a number that is not whole",
            "urgent is a boolean in PATCH /api/tasks/{id}, but urgent:=1 sends a number",
            "tags is an array ([string]) in PATCH /api/tasks/{id}, but tags:={} sends an object",
        ])
        // Whole, but not as a server reading an integer takes one: `2.0` was "not whole", `1e2` went out.
        #expect(counted.bodyProblems(in: [.jsonField(name: "reward", value: .number("2.0")), .jsonField(name: "reward", value: .number("1e2")),
                                          .jsonField(name: "reward", value: .number("-12345678901234567890"))]) == [
            "reward is an integer in PATCH /api/tasks/{id}, but reward:=2.0 sends a whole number written 2.0 (write it in digits alone)",
            "reward is an integer in PATCH /api/tasks/{id}, but reward:=1e2 sends a whole number written 1e2 (write it in digits alone)",
        ])
    }

    @Test func rightTypesUnknownFieldsAndNullWhereAllowedPass() {
        #expect(endpoint.bodyProblems(in: [.stringField(name: "title", value: "x"), .jsonField(name: "price", value: .number("2")),
                                           .stringField(name: "status", value: "open"), .jsonField(name: "note", value: .null),
                                           .stringField(name: "unknown", value: "1"), .header(name: "X", value: "1")]).isEmpty)
        #expect(Endpoint("GET", "/x", "no body").bodyProblems(in: [.stringField(name: "a", value: "1")]).isEmpty)
    }
}
