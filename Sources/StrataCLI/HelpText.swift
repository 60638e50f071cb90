/// The example-led `--help` pages of `strata` and its subcommands: examples first, then the rules.
enum HelpText {
    static let overview = """
        EXAMPLES:
          strata check Sources/App/Library.schema.yml
          strata generate Sources/App/Library.schema.yml --output .build/generated
          strata migration new Sources/App/Library.schema.yml --name add_phone
          strata migrate Sources/App/Library.schema.yml --database library.sqlite
          strata introspect existing.sqlite --output Sources/App/Legacy.schema.yml
          strata diagram Sources/App/Library.schema.yml --format dot

        Shell completion: strata --generate-completion-script zsh   (or bash, fish); see docs/CLI.md.
        """

    static let check = """
        EXAMPLES:
          strata check Library.schema.yml
          strata check Sources/*/*.schema.yml
          strata check --format json Library.schema.yml > problems.json


        """

    static let generate = """
        EXAMPLES:
          strata generate Library.schema.yml --output .build/generated
          strata generate Library.schema.yml --output-file Sources/App/Library.swift


        """

    static let migration = """
        EXAMPLES:
          strata migration new Library.schema.yml --name initial
          strata migration new Library.schema.yml --name add_phone --dry-run
          strata migration verify Library.schema.yml
        """

    static let migrationNew = """
        EXAMPLES:
          strata migration new Library.schema.yml --name initial
          strata migration new Library.schema.yml --name add_phone --dry-run
          strata migration new Library.schema.yml --name drop_x --allow-destructive


        """

    static let migrationVerify = """
        EXAMPLES:
          strata migration verify Library.schema.yml


        """

    static let migrate = """
        EXAMPLES:
          strata migrate Library.schema.yml --database library.sqlite
          strata migrate Library.schema.yml --database library.sqlite --dry-run
          strata migrate Library.schema.yml --database library.sqlite --to 3
          strata migrate Shop.schema.yml --database existing.sqlite --baseline
          strata migrate Shop.schema.yml --url postgres://app@127.0.0.1:5432/shop


        """

    static let status = """
        EXAMPLES:
          strata status Library.schema.yml --database library.sqlite
          strata status Shop.schema.yml --url postgres://app@127.0.0.1:5432/shop


        """

    static let prepare = """
        EXAMPLES:
          strata prepare Shop.schema.yml --url postgres://app@localhost/shop
          strata prepare Shop.schema.yml --url postgres://app@localhost/shop --check


        """

    static let introspect = """
        EXAMPLES:
          strata introspect shop.sqlite --output Sources/Shop/Shop.schema.yml
          strata introspect legacy.db --output Legacy.schema.yml --database Legacy


        """

    static let diagram = """
        EXAMPLES:
          strata diagram Library.schema.yml          # Mermaid, to standard output
          strata diagram Library.schema.yml --output docs/library.mmd
          strata diagram Library.schema.yml --format dot | dot -Tsvg -o library.svg

        Each table is a box with its columns and types (`?` = optional); PK, FK and UK mark primary, \
        foreign and unique keys. Each foreign key is an edge from the referenced table to the \
        referencing one: exactly one parent (0..1 when the column is optional) and zero or more \
        children (0..1 when the column is unique). Paste Mermaid output into a ```mermaid block \
        of a Markdown page.
        """
}

extension StrataCommand {
    static let overview = HelpText.overview
}
