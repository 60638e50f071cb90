/// The SQL of Sales.schema.yml's queries, for the raw and GRDB implementations (the same text
/// the generated methods prepare).
enum SalesQueriesSQLText {
    static let revenueByCustomer = """
        SELECT c.name AS customer, c.region, COUNT(*) AS sales, SUM(s.amount * s.quantity) AS revenue
        FROM sales s JOIN customers c ON c.id = s.customerId
        GROUP BY c.id
        ORDER BY c.id
        """
    static let saleById = "SELECT id, amount, quantity FROM sales WHERE id = :id"
}
