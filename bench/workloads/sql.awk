# Deterministic SQL workload for sqlite3 (bench/run): tables, inserts in
# transactions, indexes, joins, aggregates, window functions, a recursive
# CTE, updates and deletes.  awk -v n=ROWS -v seed=S -f sql.awk
# Different seeds give different data and a different query mix.
function rnd(m) { s = (s * 1103515245 + 12345) % 2147483648; return int(s / 65536) % m }
function word(   w, k) { w = ""; for (k = 0; k <= rnd(3); k++) w = w substr("kalomineruso", 1 + 2 * rnd(6), 2); return w }
BEGIN {
  s = seed + 0; if (!n) n = 10000
  cities = n / 50 + 5; customers = n / 10 + 10; products = n / 20 + 10
  print ".bail on"
  print "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
  print "CREATE TABLE city(id INTEGER PRIMARY KEY, name TEXT, region INT);"
  print "CREATE TABLE customer(id INTEGER PRIMARY KEY, name TEXT, city INT, since INT, vip INT);"
  print "CREATE TABLE product(id INTEGER PRIMARY KEY, title TEXT, price REAL, category TEXT);"
  print "CREATE TABLE orders(id INTEGER PRIMARY KEY, customer INT, product INT, qty INT, day INT, note TEXT);"
  print "BEGIN;"
  for (i = 1; i <= cities; i++) printf "INSERT INTO city VALUES(%d, '%s', %d);\n", i, word(), rnd(7)
  for (i = 1; i <= customers; i++)
    printf "INSERT INTO customer VALUES(%d, '%s %s', %d, %d, %d);\n", i, word(), word(), 1 + rnd(cities), 2000 + rnd(24), rnd(9) == 0
  for (i = 1; i <= products; i++)
    printf "INSERT INTO product VALUES(%d, '%s', %d.%02d, '%s');\n", i, word(), 1 + rnd(300), rnd(100), substr("abcdefgh", 1 + rnd(8), 1)
  for (i = 1; i <= n; i++) {
    printf "INSERT INTO orders VALUES(%d, %d, %d, %d, %d, %s);\n", i, 1 + rnd(customers), 1 + rnd(products), 1 + rnd(12), rnd(1000), rnd(4) ? "NULL" : "'" word() "'"
    if (i % 5000 == 0) print "COMMIT; BEGIN;"
  }
  print "COMMIT;"
  print "CREATE INDEX orders_customer ON orders(customer);"
  print "CREATE INDEX orders_day ON orders(day, product);"
  print "ANALYZE;"
  print "SELECT count(*), sum(qty), min(day), max(day) FROM orders;"
  print "SELECT c.region, count(*), round(sum(o.qty * p.price), 2) FROM orders o JOIN customer cu ON cu.id = o.customer JOIN city c ON c.id = cu.city JOIN product p ON p.id = o.product GROUP BY c.region ORDER BY c.region;"
  print "SELECT p.category, count(DISTINCT o.customer), avg(o.qty) FROM orders o JOIN product p ON p.id = o.product GROUP BY p.category HAVING count(*) > 10 ORDER BY 2 DESC, 1;"
  print "SELECT cu.name, sum(o.qty) AS q FROM customer cu JOIN orders o ON o.customer = cu.id WHERE cu.vip GROUP BY cu.id ORDER BY q DESC, cu.id LIMIT 10;"
  print "SELECT day / 100, count(*), group_concat(DISTINCT qty) FROM orders WHERE note IS NOT NULL AND note LIKE '%lo%' GROUP BY 1 ORDER BY 1;"
  print "SELECT id, customer, qty, sum(qty) OVER (PARTITION BY customer ORDER BY day ROWS 3 PRECEDING) FROM orders WHERE customer % 97 = 1 ORDER BY customer, day, id LIMIT 40;"
  print "SELECT title, price, rank() OVER (PARTITION BY category ORDER BY price DESC) AS r FROM product ORDER BY category, r, title LIMIT 30;"
  print "WITH RECURSIVE k(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM k WHERE x < " int(n / 10) ") SELECT count(*), sum(x % 7) FROM k LEFT JOIN orders o ON o.id = x * 3;"
  print "SELECT upper(substr(name, 1, 3)) AS pre, count(*) FROM customer GROUP BY pre ORDER BY 2 DESC, 1 LIMIT 10;"
  print "SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM orders o2 WHERE o2.customer = o.customer AND o2.day > o.day);"
  # The query mix depends on the seed: train and ref run different sets.
  if (seed % 2) {
    print "UPDATE orders SET qty = qty + 1 WHERE day % 10 = 3;"
    print "DELETE FROM orders WHERE qty > 11 AND note IS NULL;"
    print "SELECT count(*), sum(qty) FROM orders;"
    print "SELECT printf('%.2f', avg(price)), total(price) FROM product WHERE title GLOB '*a*';"
  } else {
    print "CREATE TABLE summary AS SELECT customer, count(*) AS n, sum(qty) AS q FROM orders GROUP BY customer;"
    print "SELECT n, count(*) FROM summary GROUP BY n ORDER BY n;"
    print "SELECT cu.id, s.q FROM customer cu LEFT JOIN summary s ON s.customer = cu.id WHERE s.q IS NULL OR s.q > 60 ORDER BY cu.id LIMIT 20;"
    print "SELECT city, count(*) FROM customer WHERE city IN (SELECT id FROM city WHERE region IN (1, 3, 5)) GROUP BY city ORDER BY 2 DESC, 1 LIMIT 10;"
    print "SELECT json_group_array(id) FROM (SELECT id FROM product ORDER BY price DESC LIMIT 8);"
  }
}
